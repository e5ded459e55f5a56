// Package render is the render lab (brewput lab render): a Mandelbrot
// image rendered sequentially and in three concurrent ways, then encoded
// as PNG, after the execution-tracer part of a talk on profiling Go
// programs. It times the render and the encode apart, estimates the
// program's serial fraction and sets the measured speedups against
// Amdahl's curve.
package render

import (
	"github.com/brewput/brewput/report/chartspec"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// Name is the lab's name, as in brewput lab render.
const Name = "render"

const help = `Renders a Mandelbrot image (1024x1024 pixels by default) in four
variants, then encodes it as PNG:

  seq      one goroutine computes every pixel, row after row;
  pixel    a goroutine per pixel: a million goroutines for the default size;
  row      a goroutine per row;
  workers  a fixed pool of workers (--workers, default one per CPU) takes
           row numbers from a channel.

Every variant computes each pixel with the same code, so all four produce
the same image, byte for byte; the lab checks that they do. The render and
the PNG encode (image/png, one goroutine) are timed separately, each
variant --reps times at every CPU count, and the point reports the median
of each: render_ms, encode_ms. Throughput is images rendered per second of
render time. speedup is seq's render time over the variant's, at the same
CPU count.

What to look for: a goroutine per pixel is slower than one goroutine --
about 3 times on 1 CPU, and still slower than seq on 2 CPUs although it
keeps both busy. A pixel is so little work that creating, scheduling and
waiting for its goroutine costs more than computing it, and the goroutine
that starts the others competes with them for the CPUs. A goroutine per
row and a pool of workers both do a row's worth of work per scheduling
decision and scale with the CPUs (close to 2 times on 2 CPUs); which of
the two to use is a matter of control (a pool caps how much of the
machine one image takes), not of speed.

Then Amdahl's law: once the render is parallel, the encode, which is not,
becomes a growing share of the program. serial_fraction is the encode's
share of the sequential program, encode / (seq render + encode), about
7 % for the default image on a 2.5 GHz Xeon. Amdahl's curve,
1/(s + (1-s)/n), is the best speedup of render-and-encode on n CPUs (the
model CPU counts, --model-cpus, up to 64): with 7 % serial, no more than
about 12 on 64 CPUs, and about 14 at most on any number. The measured
whole-program speedups (total_speedup) are drawn on the curve. karp_flatt
is the serial fraction the measured speedups imply (Karp-Flatt,
e = (1/S - 1/n)/(1 - 1/n)) of the render alone and, as karp_flatt_total,
of render and encode: above serial_fraction, the render itself is not
perfectly parallel.

With --png FILE the lab writes the image it rendered, so you can look at it.`

// The metrics of a point; speedups are over seq at the same CPU count.
const (
	MetricRenderMs       results.Metric = "render_ms"        // the median render
	MetricEncodeMs       results.Metric = "encode_ms"        // the median PNG encode
	MetricSpeedup        results.Metric = "speedup"          // of the render alone
	MetricTotalSpeedup   results.Metric = "total_speedup"    // of the whole program, render and encode
	MetricSerialFraction results.Metric = "serial_fraction"  // the encode's share of the sequential program
	MetricKarpFlatt      results.Metric = "karp_flatt"       // the serial fraction speedup implies (KarpFlatt), on more than 1 CPU
	MetricKarpFlattTotal results.Metric = "karp_flatt_total" // the same of total_speedup
	MetricWorkers        results.Metric = "workers"          // the variant's goroutines, as Par
	MetricPixels         results.Metric = "pixels"           // the image's
)

// NewLab returns the lab at its defaults, as brewput runs it; its flags
// are Config's. Its chart is Amdahl's curve for the serial fraction the
// points estimate, with the whole program's measured speedups on it.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: help,
		Summary: "a Mandelbrot image rendered by 1 goroutine, one per pixel, one per row or a worker pool, then PNG-encoded: Amdahl's law",
		Example: `  brewput lab render
  brewput lab render --png mandelbrot.png
  brewput lab render --size 512 --max-iter 256 --workers 8`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:     chartspec.Amdahl,
		Title:    "render: Amdahl's law and the measured speedups",
		Lesson:   "Amdahl's law: the best speedup a program with the estimated serial fraction can reach on n CPUs (the line, to 64 CPUs), with each variant's measured speedup over seq (markers). The curve flattens at 1 ÷ serial fraction, however many CPUs are added.",
		X:        chartspec.Axis{Label: "CPUs (log scale)", Of: chartspec.ByCPUs, Scale: chartspec.Log, Max: 64},
		Y:        chartspec.Axis{Label: "speedup over seq (×)", Of: chartspec.ByMetric, Metric: MetricTotalSpeedup, Else: MetricSpeedup},
		Fraction: MetricSerialFraction,
		Baseline: "seq",
		Empty:    "No point estimates a serial fraction (serial_fraction), so there is no curve to draw.",
	})
}
