package render

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of a render point, in groups; see Run.

// The variant's median render and PNG encode times, in ms.
const (
	MetricRenderMs results.Metric = "render_ms"
	MetricEncodeMs results.Metric = "encode_ms"
)

// Speedups over seq at the same CPU count: of the render alone, and of the
// whole program, render and encode.
const (
	MetricSpeedup      results.Metric = "speedup"
	MetricTotalSpeedup results.Metric = "total_speedup"
)

// Serial fractions: the encode's share of the sequential program, and what
// each speedup implies (Karp-Flatt, on more than 1 CPU only).
const (
	MetricSerialFraction results.Metric = "serial_fraction"
	MetricKarpFlatt      results.Metric = "karp_flatt"
	MetricKarpFlattTotal results.Metric = "karp_flatt_total"
)

// The variant's goroutines (as Par) and the image's pixels.
const (
	MetricWorkers results.Metric = "workers"
	MetricPixels  results.Metric = "pixels"
)

// NewLab returns the render lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
