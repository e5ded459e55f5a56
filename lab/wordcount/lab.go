package wordcount

import (
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

// NewLab returns the wordcount lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab wordcount
  brewput lab wordcount --file /usr/share/common-licenses/GPL-3
  brewput lab wordcount --size 5000000 --reps 3`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: each way's throughput, as a bar, at the most
// CPUs.
func figure() lab.Figure {
	return lab.Figure{
		Kind:   lab.Bars,
		Title:  "wordcount: throughput of each way of reading",
		Lesson: "Bytes counted per second by each way of reading, the system's wc -w beside them. One Read call per byte pays a system call per byte; a buffered reader pays one per buffer; reusing the buffer also spares an allocation per read.",
		Y:      lab.Axis{Of: lab.ByThroughput},
		Empty:  "No point to draw.",
	}
}
