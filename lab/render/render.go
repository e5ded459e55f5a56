// Package render is the render lab, after a talk on profiling Go programs:
// a Mandelbrot image rendered sequentially and in three concurrent ways,
// then encoded as PNG, the speedups set against Amdahl's law.
package render

import (
	"cmp"
	_ "embed"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "render"

//go:embed help.txt
var help string

// The metrics of a point; speedups are over seq at the same CPU count.
const (
	MetricRenderMs       results.Metric = "render_ms"        // the median render
	MetricEncodeMs       results.Metric = "encode_ms"        // the median PNG encode
	MetricSpeedup        results.Metric = "speedup"          // of the render alone: the median of the turns' (lab.Lo/Hi from 6)
	MetricTotalSpeedup   results.Metric = "total_speedup"    // of the whole program, render and encode
	MetricSerialFraction results.Metric = "serial_fraction"  // the encode's share of the sequential program
	MetricKarpFlatt      results.Metric = "karp_flatt"       // the serial fraction speedup implies (KarpFlatt), on more than 1 CPU
	MetricKarpFlattTotal results.Metric = "karp_flatt_total" // the same of total_speedup
	MetricWorkers        results.Metric = "workers"          // the variant's goroutines, as Par
	MetricPixels         results.Metric = "pixels"           // the image's
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "a Mandelbrot image by 1 goroutine, one a pixel, one a row or a pool, then PNG: Amdahl",
		Example: `  brewput lab render
  brewput lab render --png mandelbrot.png

  brewput lab render --size 512 --max-iter 256 --workers 8`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:     chartspec.Amdahl,
		Title:    "render: Amdahl's law and the measured speedups",
		X:        chartspec.Axis{Label: "CPUs (log scale)", Of: chartspec.ByCPUs, Scale: chartspec.Log},
		Y:        chartspec.Axis{Label: "whole program's speedup over seq (render and encode, ×)", Of: chartspec.ByMetric, Metric: MetricTotalSpeedup, Else: MetricSpeedup},
		Fraction: MetricSerialFraction,
		Baseline: "seq",
		Lesson: "Amdahl's law: the best speedup a program with the estimated serial fraction can reach on n CPUs (the line, out to the chart's right edge, the most of --model-cpus), " +
			"with each variant's measured speedup over seq (markers). The curve flattens at 1 ÷ serial fraction, however many CPUs are added.",
		Empty: "No point estimates a serial fraction (serial_fraction), so there is no curve to draw.",
	})
}

// Config says what Run renders and measures.
type Config struct {
	Size      int    `flag:"size" usage:"the image's width and height in pixels"`
	MaxIter   int    `flag:"max-iter" usage:"most iterations per pixel:\nthe work per pixel"`
	Workers   int    `flag:"workers" usage:"pool size of the workers variant (0: one per CPU)"`
	Reps      int    `flag:"reps" usage:"renders of each variant at each CPU count;\na point reports the medians"`
	PNG       string `flag:"png" usage:"write the rendered image to this PNG file"`
	ModelCPUs []int  `flag:"model-cpus" usage:"CPU counts of Amdahl's curve"`
}

// DefaultConfig renders in 0.44 s sequentially on the 2-core VM (the
// encode 29 ms): 29 s at 1 and 2 CPUs there, most of it a goroutine per
// pixel.
func DefaultConfig() Config {
	return Config{
		Size:      1024,
		MaxIter:   1024,
		Workers:   0,
		Reps:      lab.IntervalRuns(),
		ModelCPUs: []int{1, 2, 4, 8, 16, 32, 64},
	}
}

// Validate refuses what would take the machine's memory or hours (8192²
// pixels is 256 MiB of image, kept twice); a PNG's directory must exist,
// lest a long run end on an unwritable path.
func (c Config) Validate() error {
	if err := cmp.Or(
		lab.Refuse(c.Size < 1 || c.Size > 8192, "size %d: want an image of 1 to %d pixels a side", c.Size, 8192),
		lab.Within("max-iter", c.MaxIter, 1, 1<<24, "iterations per pixel"),
		lab.Refuse(c.Workers < 0 || c.Workers > 1<<16, "workers %d: want 1 to %d workers, or 0 for one per CPU", c.Workers, 1<<16),
		lab.AtLeast("reps", c.Reps, 1, "repetition"),
		lab.NotEmpty("model-cpus", c.ModelCPUs, "CPU count for Amdahl's curve"),
		lab.EachWithin("model-cpus", c.ModelCPUs, 1, 1<<20, "CPUs"),
	); err != nil {
		return err
	}
	if c.PNG != "" {
		dir := filepath.Dir(c.PNG)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("png %s: directory %s does not exist", c.PNG, dir)
		}
		if fi, err := os.Stat(c.PNG); err == nil && fi.IsDir() {
			return fmt.Errorf("png %s: is a directory, want a file name", c.PNG)
		}
	}
	return nil
}

// Chart draws Amdahl's curve out to the most of ModelCPUs.
func (c Config) Chart(f chartspec.Figure) chartspec.Figure {
	most := 64
	if len(c.ModelCPUs) > 0 {
		most = slices.Max(c.ModelCPUs)
	}
	f.X.Max = float64(most)
	return f
}

// Memory is what a run holds at most: the image and seq's, the palette,
// and the pixel variant's goroutines (about 16 bytes a pixel, measured at
// 2048 a side).
func (c Config) Memory() (float64, []string) {
	px := float64(c.Size) * float64(c.Size)
	return 2*px*4 + float64(c.MaxIter+1)*4 + 16*px, []string{fmt.Sprint("--size ", c.Size), fmt.Sprint("--max-iter ", c.MaxIter)}
}

// Amdahl is the best speedup on cpus CPUs (0 for none) of a program whose
// fraction serial cannot run in parallel: 1/(serial + (1−serial)/cpus).
func Amdahl(serial float64, cpus int) float64 {
	if cpus < 1 {
		return 0
	}
	return 1 / (serial + (1-serial)/float64(cpus))
}

// KarpFlatt is the serial fraction a speedup on cpus CPUs implies,
// Amdahl's law solved for it; every loss counts as serial work, and noise
// can make it a little negative. NaN on fewer than 2 CPUs or for a speedup
// that is not positive.
func KarpFlatt(speedup float64, cpus int) float64 {
	if cpus < 2 || !(speedup > 0) {
		return math.NaN()
	}
	n := float64(cpus)
	return (1/speedup - 1/n) / (1 - 1/n)
}
