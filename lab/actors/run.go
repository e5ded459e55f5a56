package actors

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

const Unit = "ids/s"

// Run measures every variant of c with every client count at each CPU
// count, in process and, with c.Remote, over gRPC. A point is c.Reps runs
// on new services, the variants taking turns: Throughput the median run's,
// its latencies every request's. Every identity is checked.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, k := range c.Clients {
			got, err := measureClients(ctx, c, k, n)
			if err != nil {
				return err
			}
			for _, p := range got {
				add(p.point, results.LabPoint{Rate: results.Interval(p.rate), Vs: results.Interval(p.vsSimple)})
			}
		}
		return nil
	})
}

// path is a variant served in process or over gRPC, and what its runs
// measured.
type path struct {
	variant  string
	name     string // the variant, after RemotePrefix if remote
	remote   bool
	requests int
	window   sweep.Window
	tputs    []float64
	hist     *hdrhistogram.Histogram
}

// measured is a point, with the intervals of its runs' throughput and of
// its ratio to simple's.
type measured struct {
	point          results.Point
	rate, vsSimple lab.Interval
}

func measureClients(ctx context.Context, c Config, clients, n int) ([]measured, error) {
	var paths []*path
	for _, v := range c.Variants {
		paths = append(paths, &path{variant: v, name: v, requests: c.Requests, hist: lab.NewHist(time.Minute)})
		if c.Remote {
			paths = append(paths, &path{variant: v, name: RemotePrefix + v, remote: true, requests: c.RemoteRequests, hist: lab.NewHist(time.Minute)})
		}
	}
	err := lab.Turns(ctx, c.Reps, len(paths), func(_, i int) error {
		p := paths[i]
		out, err := runOnce(ctx, c, p.variant, p.remote, clients, p.requests)
		if err != nil {
			return fmt.Errorf("%s clients=%d cpus=%d: %w", p.name, clients, n, err)
		}
		for _, lats := range out.latency {
			for _, d := range lats {
				lab.Record(p.hist, d)
			}
		}
		p.window.Add(out.window)
		p.tputs = append(p.tputs, float64(p.requests)/out.window.Wall.Seconds())
		return nil
	})
	if err != nil {
		return nil, err
	}
	points := make([]measured, len(paths))
	for i, p := range paths {
		m := &points[i]
		if m.point, err = p.point(c, clients, n); err != nil {
			return nil, err
		}
		if p.remote {
			local := points[i-1].point.Throughput // measured beside it, in process
			m.point.Set(MetricLocalRate, local)
			m.point.Set(MetricRemoteCost, local/m.point.Throughput)
		}
		m.rate = lab.IntervalOf(p.tputs)
		m.rate.SetEnds(&m.point, lab.MetricThroughput)
		if j := slices.IndexFunc(paths, func(s *path) bool { return s.variant == Simple && s.remote == p.remote }); j >= 0 {
			var ratios []float64
			for k := range min(len(p.tputs), len(paths[j].tputs)) {
				ratios = append(ratios, p.tputs[k]/paths[j].tputs[k])
			}
			m.vsSimple = lab.IntervalOf(ratios)
			m.vsSimple.Set(&m.point, MetricVsSimple)
		}
	}
	return points, nil
}

func (p *path) point(c Config, clients, n int) (results.Point, error) {
	thr := results.Median(p.tputs)
	pt := lab.Point(Name, p.name, n, p.window, map[results.Metric]float64{
		MetricClients:    float64(clients),
		MetricRequests:   float64(p.requests),
		MetricReplyBytes: float64(c.ReplyBytes),
		MetricCPUPerID:   p.window.CPU.Seconds() * 1e6 / float64(p.requests*len(p.tputs)),
		MetricSpread:     (slices.Max(p.tputs) - slices.Min(p.tputs)) / thr,
	})
	pt.Par, pt.Ops, pt.Unit = clients, int64(p.requests), Unit
	pt.Dur, pt.Throughput = results.FromSeconds(float64(p.requests)/thr), thr
	if p.variant == Actor {
		pt.Set(MetricMailbox, float64(c.Mailbox))
	}
	return pt, lab.Latencies(&pt, p.hist)
}

// runOnce runs clients on a new service of variant (behind a gRPC server
// if remote) and checks what they got.
func runOnce(ctx context.Context, c Config, variant string, remote bool, clients, requests int) (out outcome, err error) {
	svc, err := NewService(variant, c.Mailbox, c.ReplyBytes)
	if err != nil {
		return outcome{}, err
	}
	var call caller
	if remote {
		var r *endpoint
		r, err = serve(ctx, svc) // closes svc if it fails
		if err != nil {
			return outcome{}, err
		}
		defer func() {
			if cerr := r.close(); err == nil && cerr != nil {
				err = fmt.Errorf("gRPC server: %w", cerr)
			}
		}()
		call = r.next
	} else {
		defer svc.Close()
		call = func(_ context.Context, client int) (Reply, error) { return svc.Next(client), nil }
	}
	out, err = drive(ctx, call, clients, requests, c.ReplyBytes)
	if err != nil {
		return outcome{}, err
	}
	return out, check(out.ids, requests)
}

type caller func(ctx context.Context, client int) (Reply, error)

type outcome struct {
	window  sweep.Window
	ids     [][]uint64 // in the order received
	latency [][]int64  // each request's time in ns
}

// ctxEvery is how many requests a client makes between looks at its
// context: it stops within a millisecond, at no cost.
const ctxEvery = 64

// drive runs clients goroutines, released together, each asking call for
// its share of requests, checking each reply's size and the whole of its
// last.
func drive(ctx context.Context, call caller, clients, requests, replyBytes int) (outcome, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var once sync.Once
	var failure error
	fail := func(err error) {
		once.Do(func() { failure = err; cancel() })
	}

	out := outcome{ids: make([][]uint64, clients), latency: make([][]int64, clients)}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range clients {
		k := lab.Share(requests, clients, i)
		ids, lats := make([]uint64, 0, k), make([]int64, k)
		wg.Go(func() {
			<-start
			var last Reply
			// One clock read per request: a request's time runs from
			// the end of the one before.
			t := time.Now()
			for j := range k {
				if j%ctxEvery == 0 && runCtx.Err() != nil {
					return
				}
				r, err := call(runCtx, i)
				if err != nil {
					fail(fmt.Errorf("client %d, request %d: %w", i, j+1, err))
					return
				}
				now := time.Now()
				lats[j] = int64(now.Sub(t))
				t = now
				ids = append(ids, r.ID)
				if len(r.Record) != replyBytes {
					fail(fmt.Errorf("client %d: reply record for id %d is %d bytes, want %d", i, r.ID, len(r.Record), replyBytes))
					return
				}
				last = r
			}
			out.ids[i] = ids
			out.latency[i] = lats
			if k > 0 {
				if err := checkReply(last, i, replyBytes); err != nil {
					fail(err)
				}
			}
		})
	}
	sw := sweep.StartStopwatch()
	close(start)
	wg.Wait()
	out.window = sw.Stop()
	if err := ctx.Err(); err != nil {
		return outcome{}, err
	}
	if failure != nil {
		return outcome{}, failure
	}
	return out, nil
}

// check verifies a run's identities: each client's strictly increasing,
// all together 1 to requests, each once.
func check(ids [][]uint64, requests int) error {
	seen := make([]bool, requests+1)
	total := 0
	for client, got := range ids {
		var prev uint64
		for _, id := range got {
			switch {
			case id < 1 || id > uint64(requests):
				return fmt.Errorf("client %d got id %d: outside 1 to %d, the ids of %d requests", client, id, requests, requests)
			case id <= prev:
				return fmt.Errorf("client %d got id %d after %d: not strictly increasing", client, id, prev)
			case seen[id]:
				return fmt.Errorf("id %d handed out twice", id)
			}
			seen[id] = true
			prev = id
		}
		total += len(got)
	}
	if total != requests {
		return fmt.Errorf("%d ids handed out for %d requests", total, requests)
	}
	return nil
}
