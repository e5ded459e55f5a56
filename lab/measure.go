package lab

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/stats"
)

// Point is the point of lab name's variant measured on n CPUs over w;
// Timing.Point and Runs.Point add the rest.
func Point(name, variant string, n int, w sweep.Window, metrics map[results.Metric]float64) results.Point {
	p := results.Point{
		Kind:    results.KindLab,
		Source:  results.SourceMeasured,
		Lab:     &results.Lab{Name: name, Variant: variant},
		Metrics: metrics,
		Spec:    results.Spec{Mode: name + "/" + variant, CPUs: n},
		Start:   w.Start.UTC().Round(time.Millisecond),
	}
	w.Mark(&p)
	return p
}

// Latencies gives p the summary and the encoded histogram of h.
func Latencies(p *results.Point, h *hdrhistogram.Histogram) (err error) {
	p.Latency = results.Summarize(h)
	p.Hist, err = results.EncodeHistogram(h)
	return err
}

// NewHist is a histogram of latencies in ns, up to most.
func NewHist(most time.Duration) *hdrhistogram.Histogram { return hdrhistogram.New(1, int64(most), 3) }

// Record records d ns in h, held within h's range so that it cannot fail.
func Record(h *hdrhistogram.Histogram, d int64) {
	_ = h.RecordValue(min(max(d, 1), h.HighestTrackableValue()))
}

// Timing is what a variant's run, or runs, measured.
type Timing struct {
	sweep.Window
	Par  int
	Ops  int64
	Hist *hdrhistogram.Histogram
}

// Point is t's point, its throughput the operations over the wall time.
func (t Timing) Point(name, variant string, n int, unit string, metrics map[results.Metric]float64) (results.Point, error) {
	p := Point(name, variant, n, t.Window, metrics)
	p.Par, p.Ops, p.Unit = t.Par, t.Ops, unit
	p.Dur, p.Throughput = t.Wall, float64(t.Ops)/t.Wall.Seconds()
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

// Runs are the timed runs of one variant, for a point of the median run.
type Runs struct {
	Times  []time.Duration
	Window sweep.Window // the runs' added up
}

func (r *Runs) Add(w sweep.Window) {
	r.Times = append(r.Times, w.Wall)
	r.Window.Add(w)
}

// Point is r's point, of runs that each did ops operations with par
// goroutines: Dur the median run's time, Throughput ops over it (0 for
// runs too short to time), Latency the runs' times.
func (r Runs) Point(name, variant string, n, par int, ops int64, unit string, metrics map[results.Metric]float64) results.Point {
	lat := results.RunLatency(r.Times)
	med := results.FromSeconds(lat.P50 / 1000)
	p := Point(name, variant, n, r.Window, metrics)
	p.Par, p.Ops, p.Unit = par, ops, unit
	p.Dur, p.Latency = med, lat
	if med > 0 {
		p.Throughput = float64(ops) / med.Seconds()
	}
	return p
}

// Repeat makes reps runs of one variant by once, as Turns does.
func Repeat[T any](ctx context.Context, reps int, once func() (T, error)) ([]T, error) {
	var runs []T
	err := Turns(ctx, reps, 1, func(int, int) error {
		r, err := once()
		runs = append(runs, r)
		return err
	})
	return runs, err
}

// Median is the run of median rate among runs (of an even count, the
// faster of the middle two), its window from the first run's start with
// the CPU other processes took in all the runs, and the runs' rates.
func Median[T any](runs []T, window func(T) sweep.Window, rate func(T) float64) (T, sweep.Window, []float64) {
	rates := make([]float64, len(runs))
	var others quiet.Tally
	for i, r := range runs {
		rates[i] = rate(r)
		others.Merge(window(r).Others)
	}
	med := slices.SortedFunc(slices.Values(runs), func(a, b T) int { return cmp.Compare(rate(b), rate(a)) })[(len(runs)-1)/2]
	w := window(med)
	w.Start, w.Others = window(runs[0]).Start, others
	return med, w, rates
}

// Share is part i's share of total split among parts, the first
// total%parts parts taking one more.
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

// Interval is the median of a figure measured once a run, with its 95 %
// interval; N the runs.
type Interval struct {
	Median, Lo, Hi float64
	N              int
}

// IntervalOf is the interval of values, one per run; unbounded with fewer
// than IntervalRuns values.
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
// a point's median throughput.
const MetricThroughput results.Metric = "throughput"

// Set gives p the median as metric m, and the ends as SetEnds does.
func (iv Interval) Set(p *results.Point, m results.Metric) {
	p.Set(m, iv.Median)
	iv.SetEnds(p, m)
}

// SetEnds gives p the ends as metrics Lo(m) and Hi(m) where bounded (JSON
// has no infinity).
func (iv Interval) SetEnds(p *results.Point, m results.Metric) {
	if iv.Bounded() {
		p.Set(Lo(m), iv.Lo)
		p.Set(Hi(m), iv.Hi)
	}
}

// Ratios are the ratios, run by run, of a's times to b's (b's speedup over
// a): runs taken in turns, so that a slow spell falls on both sides.
func Ratios(a, b Runs) []float64 {
	var out []float64
	for i := range min(len(a.Times), len(b.Times)) {
		if b.Times[i] > 0 {
			out = append(out, a.Times[i].Seconds()/b.Times[i].Seconds())
		}
	}
	return out
}
