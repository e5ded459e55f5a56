package workloads

import (
	"context"
	"strings"

	"github.com/spf13/pflag"

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

// Lab is the workloads lab as brewput runs it (a lab.Lab), with its
// configuration.
type Lab struct{ Config Config }

// NewLab returns the lab at its defaults.
func NewLab() *Lab { return &Lab{Config: DefaultConfig()} }

// Info implements lab.Lab.
func (l *Lab) Info() lab.Info {
	return lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab workloads
  brewput lab workloads --cpus 1 --sort-size 5000 --docs 200
  brewput lab workloads --wait 0 --format json --out workloads.json`}
}

// Bind implements lab.Lab: a flag for each field of Config.
func (l *Lab) Bind(fs *pflag.FlagSet) func() error {
	c := &l.Config
	fs.IntVar(&c.AddSize, "add-size", c.AddSize, "add: integers summed")
	fs.IntVar(&c.SortSize, "sort-size", c.SortSize, "sort: integers bubble-sorted (time grows with its square)")
	fs.IntVar(&c.Docs, "docs", c.Docs, "find: XML documents searched")
	fs.DurationVar(&c.Wait, "wait", c.Wait, "find: blocking wait before each document, standing for the disk (0: CPU-bound)")
	fs.StringVar(&c.Topic, "topic", c.Topic, "find: the word searched for")
	fs.IntVar(&c.Workers, "workers", c.Workers, "find: goroutines in the concurrent pool (0: one per CPU of the machine)")
	fs.IntVar(&c.Goroutines, "goroutines", c.Goroutines, "add and sort: parts, one goroutine each (0: one per CPU of the machine)")
	fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each variant at each CPU count; a point reports the median")
	return func() error { return lab.FlagError(c.Validate()) }
}

// Run implements lab.Lab: Run with the lab's configuration.
func (l *Lab) Run(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
	return Run(ctx, l.Config, cpus, progress)
}

// Figure implements lab.Lab: the speedup of each workload's concurrent
// variant over its sequential one, against CPUs.
func (l *Lab) Figure() lab.Figure {
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
