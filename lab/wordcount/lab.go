package wordcount

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of a wordcount point, in groups; see Run.

// The count: words (wc's own on the wc point) and the median run, in ms.
const (
	MetricWords    results.Metric = "words"
	MetricMedianMs results.Metric = "median_ms"
)

// bytewise's median over the point's.
const (
	MetricSpeedup results.Metric = "speedup"
)

// On the Go ways, heap allocations and bytes allocated per run, as go test
// -benchmem reports them.
const (
	MetricAllocsPerOp results.Metric = "allocs_per_op"
	MetricBytesPerOp  results.Metric = "bytes_per_op"
)

// NewLab returns the wordcount lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
