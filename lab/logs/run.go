package logs

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

const Unit = "appends/s"

// Run measures every kind with every writer count at each CPU count, the
// single writer first (of_single's reference). A run's writers share
// c.Appends appends to a fresh log, which is then reopened and checked. A
// point is the median of c.Reps runs.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	if err := lab.Check(c, cpus); err != nil {
		return nil, err
	}
	// The folder names this process, so that the next run removes one a
	// killed run left behind.
	atomicfile.RemoveStale(cmp.Or(c.Dir, os.TempDir()), "brewput-logs-", "")
	base, err := os.MkdirTemp(c.Dir, atomicfile.TempPattern("brewput-logs-", ""))
	if err != nil {
		return nil, fmt.Errorf("folder for the logs: %w", err)
	}
	defer os.RemoveAll(base)
	runs := 0
	measure := func(kind Kind, t int) (run, error) {
		rs, err := lab.Repeat(ctx, c.Reps, func() (run, error) {
			runs++
			path := filepath.Join(base, fmt.Sprintf("%s-%d", kind, runs))
			defer os.RemoveAll(path)
			return runOnce(ctx, kind, c.Sync, path, t, c.Appends, c.ValueBytes)
		})
		if err != nil {
			return run{}, fmt.Errorf("%s with %d writers: %w", Variant(kind, c.Sync), t, err)
		}
		med, w, rates := lab.Median(rs, func(r run) sweep.Window { return r.window }, func(r run) float64 { return float64(c.Appends) / r.window.Wall.Seconds() })
		med.window, med.rate = w, lab.IntervalOf(rates)
		return med, nil
	}
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, kind := range c.Kinds {
			single, err := measure(kind, 1)
			if err != nil {
				return err
			}
			for _, t := range c.Writers {
				m := single
				if t != 1 {
					if m, err = measure(kind, t); err != nil {
						return err
					}
				}
				p, err := point(c, m, kind, n, t, single)
				if err != nil {
					return err
				}
				add(p, results.LabPoint{Rate: results.Interval(m.rate)})
			}
		}
		return nil
	})
}

// point is the point of r, beside single, the single writer's run.
func point(c Config, r run, kind Kind, n, t int, single run) (results.Point, error) {
	wall := r.window.Wall.Seconds()
	singleThr := float64(c.Appends) / single.window.Wall.Seconds()
	timing := lab.Timing{Window: r.window, Par: t, Ops: int64(c.Appends), Hist: r.latency}
	p, err := timing.Point(Name, Variant(kind, c.Sync), n, Unit, map[results.Metric]float64{
		MetricWriters:       float64(t),
		MetricAppends:       float64(c.Appends),
		MetricWallS:         wall,
		MetricLatencySumS:   r.latencySum.Seconds(),
		MetricOverstatement: r.latencySum.Seconds() / wall,
		MetricNaiveRate:     float64(c.Appends) / r.latencySum.Seconds(),
		MetricOfSingle:      float64(c.Appends) / wall / singleThr,
		MetricSingleRate:    singleThr,
		MetricVerified:      1,
		MetricValueBytes:    float64(c.ValueBytes),
		MetricSync:          map[bool]float64{true: 1}[c.Sync && kind != Memory],
	})
	r.rate.SetEnds(&p, lab.MetricThroughput)
	return p, err
}

type run struct {
	window     sweep.Window // Wall from the first writer's start to the last one's finish
	latencySum time.Duration
	latency    *hdrhistogram.Histogram
	rate       lab.Interval // of the appends/s of the runs of a point, on its median run
}

// runOnce has writers goroutines share appends appends of valueBytes to a
// new log of kind at path, then checks it.
func runOnce(ctx context.Context, kind Kind, synced bool, path string, writers, appends, valueBytes int) (run, error) {
	lg, err := openLog(kind, synced, path)
	if err != nil {
		return run{}, err
	}
	defer func() { lg.Close() }() // the log lg is by then
	ws := make([]*writer, writers)
	for i := range ws {
		ws[i] = newWriter(i, lab.Share(appends, writers, i), valueBytes, synced && kind != Memory)
	}
	// The writers start together: the wall time is all appending.
	gate := make(chan struct{})
	var wg sync.WaitGroup
	runtime.GC() // the last run's garbage is not this one's to collect
	for _, w := range ws {
		wg.Go(func() { w.run(ctx, lg, gate) })
	}
	sw := sweep.StartStopwatch()
	close(gate)
	wg.Wait()
	window := sw.Stop()

	if err := ctx.Err(); err != nil {
		return run{}, err
	}
	r := run{window: window, latency: lab.NewHist(time.Hour)}
	for _, w := range ws {
		if w.err != nil {
			return run{}, fmt.Errorf("writer %d: %w", w.id, w.err)
		}
		for _, d := range w.latency {
			r.latencySum += d
			lab.Record(r.latency, int64(d))
		}
	}
	first := slices.MinFunc(ws, func(a, b *writer) int { return a.start.Compare(b.start) }).start
	last := slices.MaxFunc(ws, func(a, b *writer) int { return a.end.Compare(b.end) }).end
	r.window.Wall = last.Sub(first)

	// The check reads the log back from disk; a memory log keeps nothing
	// after Close, so it is checked open.
	if kind != Memory {
		if err := lg.Close(); err != nil {
			return run{}, err
		}
		if lg, err = openLog(kind, synced, path); err != nil {
			return run{}, fmt.Errorf("reopen: %w", err)
		}
	}
	if err := check(lg, ws, appends, valueBytes); err != nil {
		return run{}, fmt.Errorf("check: %w", err)
	}
	return r, nil
}

func openLog(kind Kind, synced bool, path string) (Log, error) {
	lg, err := New(kind, synced)
	if err != nil {
		return nil, err
	}
	return lg, lg.Open(path)
}

// writer is one writer goroutine of a run: it makes its appends, in
// order, and keeps for each the index the log gave it and its latency.
type writer struct {
	id         int
	appends    int
	value      []byte // the value being appended; see fill
	indices    []int
	latency    []time.Duration
	start, end time.Time
	err        error // the first failed append, which stopped it
	every      int   // appends between looks at the context
}

func newWriter(id, appends, valueBytes int, synced bool) *writer {
	every := cancelEvery
	if synced {
		every = 1
	}
	return &writer{
		id:      id,
		every:   every,
		appends: appends,
		value:   make([]byte, valueBytes),
		indices: make([]int, 0, appends),
		latency: make([]time.Duration, 0, appends),
	}
}

// cancelEvery is how many appends a writer makes between looks at its
// context, which cost beside a memory append of half a µs.
const cancelEvery = 64

// run waits for gate to close and makes the writer's appends, timing each.
func (w *writer) run(ctx context.Context, lg Log, gate <-chan struct{}) {
	<-gate
	w.start = time.Now()
	for k := range w.appends {
		if k%w.every == 0 && ctx.Err() != nil {
			break
		}
		fill(w.value, w.id, k)
		t0 := time.Now()
		index, err := lg.Append(w.value)
		d := time.Since(t0)
		if err != nil {
			w.err = err
			break
		}
		w.indices = append(w.indices, index)
		w.latency = append(w.latency, d)
	}
	w.end = time.Now()
}

// fill writes into value the k-th value of writer id: 8 bytes of id (top
// 24 bits) and k, the rest a pattern of id (written at k = 0), so that no
// two appends write the same value and one cut short or moved is caught.
func fill(value []byte, id, k int) {
	tag := uint64(id)<<40 | uint64(k)
	binary.BigEndian.PutUint64(value, tag)
	if k == 0 {
		for i := 8; i < len(value); i++ {
			value[i] = byte(id) ^ byte(i*7)
		}
	}
}

// check reads every append of ws back from lg: the log must hold exactly
// appends values, each index given to one append, Get returning its value.
func check(lg Log, ws []*writer, appends, valueBytes int) error {
	if n := lg.Len(); n != appends {
		return fmt.Errorf("the log holds %d values after %d appends", n, appends)
	}
	total := 0
	for _, w := range ws {
		total += len(w.indices)
	}
	if total != appends {
		return fmt.Errorf("the writers made %d appends, want %d", total, appends)
	}
	owner := make([]int32, appends) // writer+1 whose append got the index; 0: none yet
	want := make([]byte, valueBytes)
	for _, w := range ws {
		for k, index := range w.indices {
			if index < 0 || index >= appends {
				return fmt.Errorf("writer %d's append %d got index %d, outside 0 to %d", w.id, k, index, appends-1)
			}
			if o := owner[index]; o != 0 {
				return fmt.Errorf("index %d given to writer %d's append %d and to one of writer %d's", index, w.id, k, o-1)
			}
			owner[index] = int32(w.id + 1)
			got, err := lg.Get(index)
			if err != nil {
				return err
			}
			fill(want, w.id, 0) // the pattern; then the tag of append k
			fill(want, w.id, k)
			if !bytes.Equal(got, want) {
				at := 0
				for at < min(len(got), len(want)) && got[at] == want[at] {
					at++
				}
				return fmt.Errorf("index %d holds %d bytes, not the %d of writer %d's append %d: they differ from byte %d", index, len(got), len(want), w.id, k, at)
			}
		}
	}
	return nil
}
