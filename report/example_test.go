package report_test

import (
	"fmt"
	"log"
	"time"

	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
)

// Build renders a report from points, such as those read back from a
// results file, and their analysis (package analyze: here, each point's
// causal profile in the model, the scaling law's fits, the model's advice);
// WriteDir would then write its files to a folder.
func ExampleBuild() {
	var points []results.Point
	for _, cpus := range []int{1, 2} {
		points = append(points, results.Point{
			Source: results.SourceMeasured, Host: results.Host{Name: "laptop"}, Spec: results.Spec{Mode: "finelocking", CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}},
			Ops: int64(250 * cpus), Throughput: float64(250 * cpus), Unit: "lattes/s",
			Latency: results.Latency{P05: 4, P25: 4, P50: 4, P75: 4.1, P95: 4.2, P99: 4.5, Mean: 4},
		})
	}
	a, err := experiment.Analyze(points, experiment.Options{})
	if err != nil {
		log.Fatal(err)
	}
	r, err := report.Build(points, a)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range r.Files {
		fmt.Println(f.Name)
	}
	// Output:
	// index.html
	// results.json
	// results.csv
	// analysis.json
	// throughput.svg
	// throughput.png
	// latency.svg
	// latency.png
	// distribution.svg
	// distribution.png
	// comparison.svg
	// comparison.png
}
