package render

import (
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

// NewLab returns the render lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab render
  brewput lab render --png mandelbrot.png
  brewput lab render --size 512 --max-iter 256 --workers 8`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: Amdahl's curve for the serial fraction the
// points estimate, with the whole program's measured speedups on it.
func figure() lab.Figure {
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
