package workloads

import (
	"strings"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points.
const (
	// MetricSpeedup is the sequential variant's median time over the
	// concurrent one's at the same CPU count; 1 on a sequential point.
	MetricSpeedup results.Metric = "speedup"
	// MetricMedianMs is the median run's time, in ms.
	MetricMedianMs results.Metric = "median_ms"
)

// NewLab returns the workloads lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab workloads
  brewput lab workloads --cpus 1 --sort-size 5000 --docs 200
  brewput lab workloads --wait 0 --format json --out workloads.json`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: the speedup of each workload's concurrent
// variant over its sequential one, against CPUs.
func figure() lab.Figure {
	return lab.Figure{
		Kind:   lab.Lines,
		Title:  "workloads: speedup of concurrent over sequential against CPUs",
		Lesson: "The speedup of each workload's concurrent version over its sequential one, at each CPU count. IO-bound find gains even on 1 CPU: its goroutines overlap their waits. CPU-bound add gains only with a second CPU, and sort never does: its concurrent version sorts the whole again after the parts.",
		X:      lab.Axis{Label: "CPUs", Of: lab.ByCPUs},
		Y:      lab.Axis{Label: "speedup over sequential (×)", Of: lab.ByMetric, Metric: MetricSpeedup},
		Line: func(p results.Point) (lab.Line, bool) {
			work, kind, _ := strings.Cut(p.Variant, "/")
			return lab.Line{Name: work}, kind == "concurrent"
		},
		Reference: lab.Reference{Label: "no gain (1×)", Y: 1},
		Empty:     "No concurrent variant has a speedup to draw.",
	}
}
