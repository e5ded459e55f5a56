package wordcount

import (
	"slices"
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
func (t timing) median() float64 { return latency(t.times).P50 / 1000 }

// wall is the time of all runs together.
func (t timing) wall() time.Duration {
	var w time.Duration
	for _, d := range t.times {
		w += d
	}
	return w
}

// latency summarizes the run times in milliseconds, each percentile
// interpolated between the nearest runs, so that P50 is the median.
func latency(times []time.Duration) results.Latency {
	s := slices.Sorted(slices.Values(times))
	if len(s) == 0 {
		return results.Latency{}
	}
	at := func(p float64) float64 {
		x := p / 100 * float64(len(s)-1)
		i := int(x)
		if i+1 >= len(s) {
			return results.Ms(s[len(s)-1])
		}
		return results.Ms(s[i]) + (x-float64(i))*(results.Ms(s[i+1])-results.Ms(s[i]))
	}
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return results.Latency{
		Min: results.Ms(s[0]), P05: at(5), P25: at(25), P50: at(50), P75: at(75),
		P90: at(90), P95: at(95), P99: at(99), Max: results.Ms(s[len(s)-1]),
		Mean: results.Ms(sum) / float64(len(s)),
	}
}

// point makes the results point of variant name measured as t on n CPUs,
// over a file of size bytes; metrics are added by the caller.
func point(name string, t timing, n int, size int64, host results.Host) results.Point {
	lat := latency(t.times)
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
		Lab:        Name,
		Variant:    name,
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
		Metrics:    map[string]float64{"median_ms": lat.P50},
		Machines:   []results.Machine{},
		Host:       host,
		Start:      t.start.UTC().Round(time.Millisecond),
	}
}
