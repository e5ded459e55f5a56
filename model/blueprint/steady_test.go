package blueprint_test

import (
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

// TestOpenLoopSteady: an open loop's window is in its steady state. On
// 1 CPU under the go policy, webserver.yaml's servers take fewer requests
// a second than the CPU bound says, for their wake-ups cost CPU too, so
// arrivals just under the bound still fill the queue: no bound says so,
// the first run's queue grows, and the point is run again with the
// warm-up its growth asks for, until its queue is full and its drops
// steady. Under fifo, arrivals over the CPU bound fill the queue by the
// bound's own reckoning. Where the arrivals are kept up with, the warm-up
// is the one asked.
func TestOpenLoopSteady(t *testing.T) {
	t.Parallel()
	b := load(t, "webserver")
	us := time.Microsecond
	costs := sim.Costs{Switch: 145 * time.Nanosecond, Wake: 75 * us, SpinWake: us, SpinWindow: 80 * us,
		MutexHandoff: 1200 * time.Nanosecond, ChanHandoff: 2900 * time.Nanosecond, BufChanHandoff: 2300 * time.Nanosecond}
	for _, c := range []struct {
		name    string
		sched   string
		cpus    int
		rate    float64
		refills bool // the warm-up passes what the bounds ask for
		drops   bool
	}{
		{"go, under the CPU bound, over what the servers take", "go", 1, 1600, true, true},
		{"fifo, over the CPU bound", "fifo", 1, 2000, false, true},
		{"go, kept up with", "go", 2, 2000, false, false},
	} {
		opt := fifo(c.cpus)
		opt.Policy.Sched, opt.Rate = c.sched, c.rate
		if c.sched == "go" {
			opt.Costs = costs
		}
		r, err := simulate(b, opt)
		if err != nil {
			t.Fatal(err)
		}
		room := b.Load.Queue + b.Load.Servers
		asked := model.SteadyWarmup(model.FillWarmup(opt.Warmup, opt.Dur, c.rate, room, r.Bounds.Serves(b.Load.Servers)), 0, r.Bounds)
		if !r.Steady() || r.Arrived == 0 || (r.Drops > 0) != c.drops || (r.Warmup > asked) != c.refills {
			t.Errorf("%s: steady %v (grew %d of %d arrivals), %d drops, warm-up %v (the bounds ask %v); want steady, drops %v, a longer warm-up %v",
				c.name, r.Steady(), r.Growth(), r.Arrived, r.Drops, r.Warmup, asked, c.drops, c.refills)
		}
		if c.drops && r.Latency.P50 < 500*time.Millisecond {
			t.Errorf("%s: p50 %v; want the wait behind a full queue, over 500 ms", c.name, r.Latency.P50)
		}
	}
}
