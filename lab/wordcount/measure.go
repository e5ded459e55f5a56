package wordcount

import (
	"time"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// timing is what the runs of one variant measured.
type timing struct {
	lab.Runs              // CPU time: this process's, or wc's
	mallocs, bytes uint64 // heap allocations and bytes allocated, all runs together
}

// point makes the results point of variant name measured as t on n CPUs,
// over a file of size bytes; metrics are added by the caller.
func point(name string, t timing, n int, size int64) results.Point {
	lat := t.Latency()
	med := lat.P50 / 1000
	cpuUsed, tput := t.CPUsUsed(), 0.0
	if med > 0 {
		tput = float64(size) / med
	}
	return results.Point{
		Source:     results.SourceMeasured,
		Lab:        results.Lab{Name: Name, Variant: name, Metrics: map[results.Metric]float64{MetricMedianMs: lat.P50}},
		Mode:       Name + "/" + name,
		CPUs:       n,
		Par:        1,
		DurS:       med,
		Ops:        size,
		Throughput: tput,
		Unit:       "bytes/s",
		CPUUsed:    cpuUsed,
		Util:       cpuUsed / float64(n),
		Latency:    lat,
		Start:      t.Start.UTC().Round(time.Millisecond),
	}
}
