package wordcount

import (
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
	p := lab.Point(Name, name, n, t.Start, cpuUsed, map[results.Metric]float64{MetricMedianMs: lat.P50})
	p.Par, p.Ops, p.Unit = 1, size, "bytes/s"
	p.DurS, p.Throughput, p.Latency = med, tput, lat
	return p
}
