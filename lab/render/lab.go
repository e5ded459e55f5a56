package render

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points; see Run.
const (
	MetricRenderMs       results.Metric = "render_ms"
	MetricEncodeMs       results.Metric = "encode_ms"
	MetricSpeedup        results.Metric = "speedup"
	MetricTotalSpeedup   results.Metric = "total_speedup"
	MetricSerialFraction results.Metric = "serial_fraction"
	MetricKarpFlatt      results.Metric = "karp_flatt"
	MetricKarpFlattTotal results.Metric = "karp_flatt_total"
	MetricWorkers        results.Metric = "workers"
	MetricPixels         results.Metric = "pixels"
)

// Lab is the render lab as brewput runs it (a lab.Lab), with its
// configuration.
type Lab struct{ Config Config }

// NewLab returns the lab at its defaults.
func NewLab() *Lab { return &Lab{Config: DefaultConfig()} }

// Info implements lab.Lab.
func (l *Lab) Info() lab.Info {
	return lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab render
  brewput lab render --png mandelbrot.png
  brewput lab render --size 512 --max-iter 256 --workers 8`}
}

// Bind implements lab.Lab: a flag for each field of Config.
func (l *Lab) Bind(fs *pflag.FlagSet) func() error {
	c := &l.Config
	fs.IntVar(&c.Size, "size", c.Size, "the image's width and height in pixels")
	fs.IntVar(&c.MaxIter, "max-iter", c.MaxIter, "most iterations per pixel: the work per pixel")
	fs.IntVar(&c.Workers, "workers", c.Workers, "pool size of the workers variant (0: one per CPU)")
	fs.IntVar(&c.Reps, "reps", c.Reps, "renders of each variant at each CPU count; a point reports the medians")
	fs.StringVar(&c.PNG, "png", c.PNG, "write the rendered image to this PNG file")
	fs.IntSliceVar(&c.ModelCPUs, "model-cpus", c.ModelCPUs, "CPU counts of Amdahl's curve")
	return func() error { return lab.FlagError(c.Validate()) }
}

// Run implements lab.Lab: Run with the lab's configuration.
func (l *Lab) Run(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
	return Run(ctx, l.Config, cpus, progress)
}

// Figure implements lab.Lab: Amdahl's curve for the serial fraction the
// points estimate, with the whole program's measured speedups on it.
func (l *Lab) Figure() lab.Figure {
	return lab.Figure{
		Kind:     lab.Amdahl,
		Title:    "render: Amdahl's law and the measured speedups",
		Lesson:   "Amdahl's law: the best speedup a program with the estimated serial fraction can reach on n CPUs (the line, to 64 CPUs), with each variant's measured speedup over seq (markers). The curve flattens at 1 ÷ serial fraction, however many CPUs are added.",
		X:        lab.Axis{Label: "CPUs (log scale)", Of: lab.ByCPUs, Scale: lab.Log, Max: 64},
		Y:        lab.Axis{Label: "speedup over seq (×)", Of: lab.ByMetric, Metric: MetricTotalSpeedup, Else: MetricSpeedup},
		Fraction: MetricSerialFraction,
		Baseline: "seq",
		Empty:    "No point estimates a serial fraction (serial_fraction), so there is no curve to draw.",
	}
}
