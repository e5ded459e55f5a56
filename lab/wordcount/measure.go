package wordcount

import (
	"time"

	"github.com/brewput/brewput/results"
)

// timing is what the runs of one variant measured.
type timing struct {
	times          []time.Duration // wall time of each run
	cpu            time.Duration   // CPU time during the runs: this process's, or wc's
	mallocs, bytes uint64          // heap allocations and bytes allocated, all runs together
	start          time.Time
}

// median is the middle run's time in seconds, the mean of the two middle
// ones for an even count: unlike the mean, one run slowed by the machine
// does not move it. It is the latency's P50, to the last bit.
func (t timing) median() float64 { return results.RunLatency(t.times).P50 / 1000 }

// wall is the time of all runs together.
func (t timing) wall() time.Duration {
	var w time.Duration
	for _, d := range t.times {
		w += d
	}
	return w
}

// point makes the results point of variant name measured as t on n CPUs,
// over a file of size bytes; metrics are added by the caller.
func point(name string, t timing, n int, size int64) results.Point {
	lat := results.RunLatency(t.times)
	med := lat.P50 / 1000
	var cpuUsed, tput float64
	if w := t.wall(); w > 0 {
		cpuUsed = t.cpu.Seconds() / w.Seconds()
	}
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
		Start:      t.start.UTC().Round(time.Millisecond),
	}
}
