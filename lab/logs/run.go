package logs

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/internal/stale"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// Unit is the unit of a point's Throughput.
const Unit = "appends/s"

// Run measures every kind in c.Kinds with every writer count in
// c.Writers at each CPU count in cpus, with runtime.GOMAXPROCS set to it
// for the measurement and restored afterwards, and returns a point per
// combination, in that nesting order. progress, if not nil, gets one line
// per point.
//
// A run opens a fresh log, starts its writers together, and has them
// share c.Appends appends; each append's latency is timed by the writer
// that made it. After the run the log is closed and opened again (a
// memory log, which keeps nothing, is checked open), and every append is
// checked: the log holds c.Appends values, each index was returned to
// exactly one append, and Get at each index returns what that append
// wrote. A failed check is an error. Each point is the run of median wall
// time among c.Reps runs. Before a kind's points Run measures its single
// writer, which is the reference of of_single, and also the point of 1
// writer when c.Writers has one.
//
// Each point has Lab Name, Variant as made by Variant, Par the writer
// count, Ops the appends, DurS the wall time from the first writer's
// start to the last one's finish, Throughput Ops over DurS in appends/s,
// Latency the distribution of every append's latency, and Metrics:
//
//	writers               the writer count t, as Par
//	appends               the appends of the run, all writers together
//	wall_s                first start to last finish, as DurS
//	latency_sum_s         the sum of every append's latency: the naive total
//	overstatement         latency_sum_s ÷ wall_s: about t for t writers
//	                      that keep the log busy, never more than t
//	naive_appends_per_s   appends ÷ latency_sum_s: the throughput the
//	                      naive total would claim
//	of_single             Throughput ÷ single_appends_per_s
//	single_appends_per_s  the single writer's throughput, same kind and CPUs
//	verified              1: the run passed its check (a failure is an error)
//	value_bytes, sync     the value size, and 1 if the log syncs
//
// Logs go in a folder Run makes in c.Dir (or the temporary folder),
// brewput-logs-PID-NNN, and removes, with everything in it, before it
// returns; it first removes such folders of processes that no longer run
// (killed before they could remove theirs). When ctx is
// cancelled, Run returns the points measured so far with ctx.Err().
// GOMAXPROCS is the process's, so Run must not run beside other
// measurements in the same process.
func Run(ctx context.Context, c Config, cpus []int, progress func(line string)) ([]results.Point, error) {
	if err := lab.Check(c, cpus); err != nil {
		return nil, err
	}
	// The folder names this process: one a killed run left behind (no
	// signal handler runs on SIGKILL) is removed by the next run.
	stale.Remove(tempDir(c.Dir), "brewput-logs-", "")
	base, err := os.MkdirTemp(c.Dir, stale.Pattern("brewput-logs-", ""))
	if err != nil {
		return nil, fmt.Errorf("folder for the logs: %w", err)
	}
	defer os.RemoveAll(base)
	s := &sweeper{c: c, base: base}
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, kind := range c.Kinds {
			single, err := s.measure(ctx, kind, 1)
			if err != nil {
				return err
			}
			for _, t := range c.Writers {
				m := single
				if t != 1 {
					if m, err = s.measure(ctx, kind, t); err != nil {
						return err
					}
				}
				p, err := s.point(m, kind, n, t, single)
				if err != nil {
					return err
				}
				add(p, fmt.Sprintf("logs cpus=%d %s writers=%d: %s, %.0f%% of 1 writer; latency sum %.2f× the wall time; verified",
					n, p.Variant, t, format.Rate(p.Throughput, Unit), 100*p.Metrics[MetricOfSingle], p.Metrics[MetricOverstatement]))
			}
		}
		return nil
	})
}

// sweeper runs a Config's points, each log in a new path under base.
type sweeper struct {
	c    Config
	base string
	runs int
}

// measure runs kind with t writers c.Reps times, at the current
// GOMAXPROCS, and returns the run of median wall time: for an even count,
// the slower of the two middle ones.
func (s *sweeper) measure(ctx context.Context, kind Kind, t int) (run, error) {
	runs := make([]run, 0, s.c.Reps)
	for range s.c.Reps {
		if err := ctx.Err(); err != nil {
			return run{}, err
		}
		s.runs++
		path := filepath.Join(s.base, fmt.Sprintf("%s-%d", kind, s.runs))
		r, err := runOnce(ctx, kind, s.c.Sync, path, t, s.c.Appends, s.c.ValueBytes)
		os.RemoveAll(path)
		if err != nil {
			return run{}, fmt.Errorf("%s with %d writers: %w", Variant(kind, s.c.Sync), t, err)
		}
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b run) int { return cmp.Compare(a.wall, b.wall) })
	return runs[len(runs)/2], nil
}

// point makes the results point of run r of kind with t writers on n
// CPUs, given the single writer's run of the same kind and CPUs.
func (s *sweeper) point(r run, kind Kind, n, t int, single run) (results.Point, error) {
	wall := r.wall.Seconds()
	thr := float64(s.c.Appends) / wall
	singleThr := float64(s.c.Appends) / single.wall.Seconds()
	used := r.cpu.Seconds() / wall
	v := Variant(kind, s.c.Sync)
	synced := 0.0
	if s.c.Sync && kind != Memory {
		synced = 1
	}
	p := lab.Point(Name, v, n, r.start, used, map[results.Metric]float64{
		MetricWriters:       float64(t),
		MetricAppends:       float64(s.c.Appends),
		MetricWallS:         wall,
		MetricLatencySumS:   r.latencySum.Seconds(),
		MetricOverstatement: r.latencySum.Seconds() / wall,
		MetricNaiveRate:     float64(s.c.Appends) / r.latencySum.Seconds(),
		MetricOfSingle:      thr / singleThr,
		MetricSingleRate:    singleThr,
		MetricVerified:      1,
		MetricValueBytes:    float64(s.c.ValueBytes),
		MetricSync:          synced,
	})
	p.Par, p.Ops, p.Unit = t, int64(s.c.Appends), Unit
	p.DurS, p.Throughput = wall, thr
	return p, lab.Latencies(&p, r.latency)
}

// run is what one run measured.
type run struct {
	start      time.Time     // when the writers were let go
	wall       time.Duration // from the first writer's start to the last one's finish
	cpu        time.Duration // process CPU time over the run
	latencySum time.Duration // every append's latency, added up
	latency    *hdrhistogram.Histogram
}

// runOnce opens a new log of kind at path, has writers goroutines append
// appends values of valueBytes bytes to it between them, and checks the
// log afterwards (see check). On cancellation the writers stop after
// their current append, and runOnce returns ctx.Err().
func runOnce(ctx context.Context, kind Kind, synced bool, path string, writers, appends, valueBytes int) (run, error) {
	lg, err := New(kind, synced)
	if err != nil {
		return run{}, err
	}
	if err := lg.Open(path); err != nil {
		return run{}, err
	}
	open := true
	defer func() {
		if open {
			lg.Close()
		}
	}()

	ws := make([]*writer, writers)
	for i := range ws {
		ws[i] = newWriter(i, lab.Share(appends, writers, i), valueBytes, synced && kind != Memory)
	}
	// The writers wait at the gate, so that they start together and the
	// wall time is all appending, not starting goroutines.
	gate := make(chan struct{})
	var wg sync.WaitGroup
	runtime.GC() // the last run's garbage is not this one's to collect
	for _, w := range ws {
		wg.Go(func() { w.run(ctx, lg, gate) })
	}
	sw := lab.StartStopwatch()
	close(gate)
	wg.Wait()
	_, cpu := sw.Stop()

	if err := ctx.Err(); err != nil {
		return run{}, err
	}
	r := run{start: sw.Start, cpu: cpu, latency: hdrhistogram.New(1, int64(time.Hour), 3)}
	first, last := ws[0].start, ws[0].end
	for _, w := range ws {
		if w.err != nil {
			return run{}, fmt.Errorf("writer %d: %w", w.id, w.err)
		}
		first, last = minTime(first, w.start), maxTime(last, w.end)
		for _, d := range w.latency {
			r.latencySum += d
			_ = r.latency.RecordValue(max(int64(d), 1)) // fails only past an hour
		}
	}
	r.wall = last.Sub(first)

	// The check reads the log as a new reader would: closed and opened
	// again, from what is on disk. A memory log keeps nothing after
	// Close, so it is checked as it is.
	if kind != Memory {
		open = false
		if err := lg.Close(); err != nil {
			return run{}, err
		}
		if lg, err = New(kind, synced); err != nil {
			return run{}, err
		}
		if err := lg.Open(path); err != nil {
			return run{}, fmt.Errorf("reopen: %w", err)
		}
		open = true
	}
	if err := check(lg, ws, appends, valueBytes); err != nil {
		return run{}, fmt.Errorf("check: %w", err)
	}
	return r, nil
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// tempDir is where os.MkdirTemp(dir, …) makes its folder.
func tempDir(dir string) string {
	if dir == "" {
		return os.TempDir()
	}
	return dir
}
