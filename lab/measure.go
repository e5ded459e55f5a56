package lab

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/stats"
)

// Point is the point of lab name's variant measured on n CPUs from start:
// Mode "name/variant", Start in UTC to the ms, used CPUs (CPU time over
// wall time) as CPUUsed, and as Util the share of the n CPUs busy, at most
// 1: the runtime's threads outside GOMAXPROCS can add a few percent, which
// CPUUsed keeps. Timing.Point and Runs.Point add the rest.
func Point(name, variant string, n int, start time.Time, used float64, metrics map[results.Metric]float64) results.Point {
	return results.Point{
		Kind:    results.KindLab,
		Source:  results.SourceMeasured,
		Lab:     &results.Lab{Name: name, Variant: variant, Metrics: metrics},
		Spec:    results.Spec{Mode: name + "/" + variant, CPUs: n},
		CPUUsed: used,
		Util:    min(used/float64(n), 1),
		Start:   start.UTC().Round(time.Millisecond),
	}
}

// Latencies gives p the summary (Latency) and the encoded histogram
// (Hist) of the latencies in h.
func Latencies(p *results.Point, h *hdrhistogram.Histogram) error {
	p.Latency = results.Summarize(h)
	var err error
	p.Hist, err = results.EncodeHistogram(h)
	return err
}

// NewHist is a histogram of latencies in ns, up to most.
func NewHist(most time.Duration) *hdrhistogram.Histogram { return hdrhistogram.New(1, int64(most), 3) }

// Record records d ns in h, held within h's range so that it cannot fail.
func Record(h *hdrhistogram.Histogram, d int64) {
	_ = h.RecordValue(min(max(d, 1), h.HighestTrackableValue()))
}

// Timing is what a variant's run, or runs, measured: when it began, its
// wall and CPU time, its goroutines (Par), operations and latencies, and
// what other processes took during its runs (its laps' Others, summed).
type Timing struct {
	Start     time.Time
	Wall, CPU time.Duration
	Par       int
	Ops       int64
	Hist      *hdrhistogram.Histogram
	Others    quiet.Tally
}

// Point is t's point (see Point): Dur the wall time, Throughput the
// operations over it in unit, Latency from Hist, OthersCPUs and StealCPUs
// from its own runs' windows.
func (t Timing) Point(name, variant string, n int, unit string, metrics map[results.Metric]float64) (results.Point, error) {
	secs := t.Wall.Seconds()
	p := Point(name, variant, n, t.Start, t.CPU.Seconds()/secs, metrics)
	p.Par, p.Ops, p.Unit = t.Par, t.Ops, unit
	p.Dur, p.Throughput = t.Wall, float64(t.Ops)/secs
	t.Others.Mark(&p)
	return p, Latencies(&p, t.Hist)
}

// Turns runs each of k variants reps times, taking turns so that a slow
// spell of the machine falls on all alike. Each run starts from a
// collected heap, and none once ctx is done.
func Turns(ctx context.Context, reps, k int, run func(rep, i int) error) error {
	for rep := range reps {
		for i := range k {
			if err := ctx.Err(); err != nil {
				return err
			}
			runtime.GC()
			if err := run(rep, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// Stopwatch times a stretch of a lab's work: wall time from Start, the
// process's CPU time, and what other processes took meanwhile.
type Stopwatch struct {
	Start time.Time
	cpu0  time.Duration
	q0    quiet.Sample
}

// StartStopwatch reads the machine's CPU accounting and the process's
// CPU time, then the clock.
func StartStopwatch() Stopwatch {
	q0 := quiet.Take()
	cpu0 := harness.ProcessCPU()
	return Stopwatch{Start: time.Now(), cpu0: cpu0, q0: q0}
}

// Lap is one timed stretch: when it began, its wall and CPU time, and
// the window of other processes' CPU over it.
type Lap struct {
	Start     time.Time
	Wall, CPU time.Duration
	Others    quiet.Tally
}

// Stop returns the lap since the start: the wall time, then the CPU time,
// then the machine's accounting, read in that order.
func (s Stopwatch) Stop() Lap {
	l := Lap{Start: s.Start, Wall: time.Since(s.Start)}
	l.CPU = harness.ProcessCPU() - s.cpu0
	l.Others.Add(s.q0, quiet.Take())
	return l
}

// Add adds lap o to l, a stretch timed in parts: l starts when its
// first part did.
func (l *Lap) Add(o Lap) {
	if l.Start.IsZero() {
		l.Start = o.Start
	}
	l.Wall += o.Wall
	l.CPU += o.CPU
	l.Others.Merge(o.Others)
}

// Runs are the timed runs of one variant, for a point of the median run.
type Runs struct {
	Times  []time.Duration // the wall time of each run
	CPU    time.Duration   // CPU time over the runs
	Start  time.Time       // when the first began
	Others quiet.Tally     // other processes' CPU over the runs alone
}

// Add records a run, its lap.
func (r *Runs) Add(l Lap) {
	if r.Start.IsZero() {
		r.Start = l.Start
	}
	r.Times = append(r.Times, l.Wall)
	r.CPU += l.CPU
	r.Others.Merge(l.Others)
}

// Median is the middle run's time in seconds (the mean of the middle two
// of an even count), the Latency's P50 exactly.
func (r Runs) Median() float64 { return r.Latency().P50 / 1000 }

// Latency is the distribution of the runs' times, in ms.
func (r Runs) Latency() results.Latency { return results.RunLatency(r.Times) }

// CPUsUsed is the CPU time over the runs' wall time; 0 without runs.
func (r Runs) CPUsUsed() float64 {
	var wall time.Duration
	for _, d := range r.Times {
		wall += d
	}
	if wall <= 0 {
		return 0
	}
	return r.CPU.Seconds() / wall.Seconds()
}

// Point is r's point (see Point), of runs that each did ops operations
// with par goroutines: Dur the median run's time, Throughput ops over it
// in unit (0 for runs too short to time), Latency the runs' times,
// OthersCPUs and StealCPUs over the runs' own windows.
func (r Runs) Point(name, variant string, n, par int, ops int64, unit string, metrics map[results.Metric]float64) results.Point {
	lat := r.Latency()
	med := results.FromSeconds(lat.P50 / 1000)
	p := Point(name, variant, n, r.Start, r.CPUsUsed(), metrics)
	p.Par, p.Ops, p.Unit = par, ops, unit
	p.Dur, p.Latency = med, lat
	if med > 0 {
		p.Throughput = float64(ops) / med.Seconds()
	}
	r.Others.Mark(&p)
	return p
}

// Share is part i's share of total work split among parts: an even
// share, the first total%parts parts taking one more.
func Share(total, parts, i int) int {
	n := total / parts
	if i < total%parts {
		n++
	}
	return n
}

// Part is the range [lo, hi) of part i of n items split by Share.
func Part(n, parts, i int) (lo, hi int) {
	lo = i*(n/parts) + min(i, n%parts)
	return lo, lo + Share(n, parts, i)
}

// Interval is the median of a figure measured once a run, with the 95 %
// interval around it that lessons and compare give theirs (benchmath's,
// through stats.Values); N the runs.
type Interval struct {
	Median, Lo, Hi float64
	N              int
}

// IntervalOf is the interval of values, one per run; unbounded (Lo and Hi
// infinite) with fewer than IntervalRuns values.
func IntervalOf(values []float64) Interval {
	s := stats.Values(values)
	return Interval{Median: s.Median, Lo: s.Lo, Hi: s.Hi, N: len(values)}
}

// IntervalRuns is the fewest runs whose median has a bounded interval: 6.
func IntervalRuns() int { return stats.RunsForInterval() }

// Bounded reports whether the interval has finite ends.
func (iv Interval) Bounded() bool { return !math.IsInf(iv.Lo, 0) && !math.IsInf(iv.Hi, 0) }

// Lo and Hi name the metrics of m's interval's ends: "speedup_lo".
func Lo(m results.Metric) results.Metric { return m + "_lo" }
func Hi(m results.Metric) results.Metric { return m + "_hi" }

// MetricThroughput names, through Lo and Hi, the ends of the interval of
// a point's median throughput (the point's Throughput is its median run's).
const MetricThroughput results.Metric = "throughput"

// Set puts the median in metrics as m, and the ends as SetEnds does.
func (iv Interval) Set(metrics map[results.Metric]float64, m results.Metric) {
	metrics[m] = iv.Median
	iv.SetEnds(metrics, m)
}

// SetEnds puts the ends in metrics as Lo(m) and Hi(m) where bounded
// (JSON has no infinity).
func (iv Interval) SetEnds(metrics map[results.Metric]float64, m results.Metric) {
	if iv.Bounded() {
		metrics[Lo(m)], metrics[Hi(m)] = iv.Lo, iv.Hi
	}
}

// Text writes the median by f, and the interval where bounded: "1.81
// [1.70, 1.90]"; "1.81 (5 runs)" below IntervalRuns, so that a bare
// figure is not taken for a settled one.
func (iv Interval) Text(f func(float64) string) string { return f(iv.Median) + " " + iv.Ends(f) }

// Ends writes the interval's ends by f, "[1.70, 1.90]", or the runs
// where it is unbounded, "(5 runs)".
func (iv Interval) Ends(f func(float64) string) string {
	if !iv.Bounded() {
		return fmt.Sprintf("(%s)", format.Count(iv.N, "run"))
	}
	return fmt.Sprintf("[%s, %s]", f(iv.Lo), f(iv.Hi))
}

// Ratios are the ratios, run by run, of a's times to b's: paired runs,
// as Turns takes them, so that a slow spell of the machine falls on both
// sides of a ratio (b's speedup over a, for a's times over b's).
func Ratios(a, b Runs) []float64 {
	var out []float64
	for i := range min(len(a.Times), len(b.Times)) {
		if b.Times[i] > 0 {
			out = append(out, a.Times[i].Seconds()/b.Times[i].Seconds())
		}
	}
	return out
}
