package workloads

import (
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
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
