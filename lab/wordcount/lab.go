package wordcount

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points; see Run.
const (
	MetricMedianMs    results.Metric = "median_ms"
	MetricWords       results.Metric = "words"
	MetricSpeedup     results.Metric = "speedup"
	MetricAllocsPerOp results.Metric = "allocs_per_op"
	MetricBytesPerOp  results.Metric = "bytes_per_op"
)

// Lab is the wordcount lab as brewput runs it (a lab.Lab), with its
// configuration.
type Lab struct{ Config Config }

// NewLab returns the lab at its defaults.
func NewLab() *Lab { return &Lab{Config: DefaultConfig()} }

// Info implements lab.Lab.
func (l *Lab) Info() lab.Info {
	return lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab wordcount
  brewput lab wordcount --file /usr/share/common-licenses/GPL-3
  brewput lab wordcount --size 5000000 --reps 3`}
}

// Bind implements lab.Lab: a flag for each field of Config.
func (l *Lab) Bind(fs *pflag.FlagSet) func() error {
	c := &l.Config
	fs.StringVar(&c.File, "file", c.File, "count this file's words (default: a generated text of --size bytes)")
	fs.IntVar(&c.Size, "size", c.Size, "bytes of the generated text")
	fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each way of reading at each CPU count; a point reports the median")
	return func() error { return lab.FlagError(c.Validate()) }
}

// Run implements lab.Lab: Run with the lab's configuration.
func (l *Lab) Run(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
	return Run(ctx, l.Config, cpus, progress)
}

// Figure implements lab.Lab: each way's throughput, as a bar, at the most
// CPUs.
func (l *Lab) Figure() lab.Figure {
	return lab.Figure{
		Kind:   lab.Bars,
		Title:  "wordcount: throughput of each way of reading",
		Lesson: "Bytes counted per second by each way of reading, the system's wc -w beside them. One Read call per byte pays a system call per byte; a buffered reader pays one per buffer; reusing the buffer also spares an allocation per read.",
		Y:      lab.Axis{Of: lab.ByThroughput},
		Empty:  "No point to draw.",
	}
}
