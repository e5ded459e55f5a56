package blueprint_test

import (
	"math"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
)

const ms = time.Millisecond

func load(t *testing.T, name string) *blueprint.Blueprint {
	t.Helper()
	b, err := blueprint.Load("../../examples/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// eachCPUs runs b on 1 to 8 CPUs under fifo and hands each result to
// check.
func eachCPUs(t *testing.T, b *blueprint.Blueprint, check func(n int, r result)) {
	t.Helper()
	for n := 1; n <= 8; n++ {
		r, err := simulate(b, fifo(n))
		if err != nil {
			t.Fatal(err)
		}
		check(n, r)
	}
}

// machine returns the result's machine called name.
func machine(t *testing.T, r result, name string) use {
	t.Helper()
	for _, m := range r.Machines {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no machine %q in %+v", name, r.Machines)
	return use{}
}

// TestFinelockingExample checks the talk's result for finelocking.yaml,
// exactly: N customers on N CPUs make min(250·N, 1000) lattes a second.
// Up to 4 CPUs every latte takes 4 ms and each machine is busy N/4 of the
// time; past 4 the machines are the bottleneck, busy all the time, and by
// Little's law each of the N customers takes N ms a latte, the N−4 ms of
// waiting all spent queueing for the grinder, after which the lattes flow.
func TestFinelockingExample(t *testing.T) {
	b := load(t, "finelocking")
	if b.Name != "finelocking" || b.Unit != "lattes" || len(b.Resources) != 3 {
		t.Errorf("name %q, unit %q, resources %+v", b.Name, b.Unit, b.Resources)
	}
	eachCPUs(t, b, func(n int, r result) {
		want := min(250*n, 1000)
		lat := max(4, time.Duration(n)) * ms
		if r.Lattes != want || r.Throughput != float64(want) {
			t.Errorf("%d CPUs: %d lattes (%v/s), want %d", n, r.Lattes, r.Throughput, want)
		}
		if r.Latency.Min != lat || r.Latency.Max != lat || r.Latency.Mean != lat {
			t.Errorf("%d CPUs: latency %+v, want %v for every latte", n, r.Latency, lat)
		}
		if wantUtil := float64(4*want) / 1000 / float64(n); r.CPUUtil != wantUtil {
			t.Errorf("%d CPUs: CPU utilization %v, want %v", n, r.CPUUtil, wantUtil)
		}
		if r.Little != 1 || r.Service != nil || r.Drops != 0 || r.Sched != "fifo" || r.Seed != 1 {
			t.Errorf("%d CPUs: Little %v, Service %v, Drops %d, Sched %q, Seed %d; want 1, nil, 0, fifo, 1", n, r.Little, r.Service, r.Drops, r.Sched, r.Seed)
		}
		for i, name := range []string{"grinder", "espresso", "steamer"} {
			m := r.Machines[i]
			wait := time.Duration(0)
			if name == "grinder" {
				wait = max(0, time.Duration(n-4)) * ms
			}
			if m.Name != name || m.Uses != int64(want) || m.BusyFrac != float64(want)/1000 || m.MeanWait != wait {
				t.Errorf("%d CPUs: machine %+v; want %s, %d uses, busy %v, wait %v", n, m, name, want, float64(want)/1000, wait)
			}
		}
		limit := "cpus"
		if n > 4 {
			limit = "grinder"
		}
		wantB := model.Bounds{CPU: 250 * float64(n), Structural: 1000, Resource: "grinder",
			ThroughputMax: float64(want), Limit: limit, LatencyMin: 4 * ms}
		if r.Bounds != wantB {
			t.Errorf("%d CPUs: bounds %+v, want %+v", n, r.Bounds, wantB)
		}
	})
}

// TestCafeExample checks cafe.yaml by hand. A latte is 10 ms of CPU and
// 10 ms long when nobody waits (2 ms at the cashier, 8 ms with a barista,
// 2.5 ms of it at the espresso machine), so N customers on N CPUs make at
// most 100·N a second; two baristas at 8 ms a latte make at most 250. From
// 3 CPUs on the baristas are the bottleneck: 250 lattes a second, a mean
// latency of N/250 s by Little's law, all the waiting spent queueing for a
// barista; the two baristas fall into step 4 ms apart and never wait for
// the espresso machine, busy 2.5 ms of every 4.
func TestCafeExample(t *testing.T) {
	b := load(t, "cafe")
	eachCPUs(t, b, func(n int, r result) {
		want := min(100*n, 250)
		mean := max(10, 4*time.Duration(n)) * ms
		if r.Lattes != want || r.Latency.Mean != mean || r.Little != 1 {
			t.Errorf("%d CPUs: %d lattes, mean latency %v, Little %v; want %d, %v, 1", n, r.Lattes, r.Latency.Mean, r.Little, want, mean)
		}
		if n <= 2 && (r.Latency.Min != mean || r.Latency.Max != mean) {
			t.Errorf("%d CPUs: latency %v to %v, want %v for every latte", n, r.Latency.Min, r.Latency.Max, mean)
		}
		if wantUtil := float64(10*want) / 1000 / float64(n); math.Abs(r.CPUUtil-wantUtil) > 1e-12 {
			t.Errorf("%d CPUs: CPU utilization %v, want %v", n, r.CPUUtil, wantUtil)
		}
		for _, c := range []struct {
			name string
			busy float64 // fraction of each unit's time
			wait time.Duration
		}{
			{"cashier", 0.002 * float64(want), 0},
			{"barista", 0.008 * float64(want) / 2, mean - 10*ms},
			{"espresso", 0.0025 * float64(want), 0},
		} {
			m := machine(t, r, c.name)
			if m.Uses != int64(want) || math.Abs(m.BusyFrac-c.busy) > 1e-12 || m.MeanWait != c.wait {
				t.Errorf("%d CPUs: %+v; want %d uses, busy %v, mean wait %v", n, m, want, c.busy, c.wait)
			}
		}
		limit := "cpus"
		if n > 2 {
			limit = "barista"
		}
		wantB := model.Bounds{CPU: 100 * float64(n), Structural: 250, Resource: "barista",
			ThroughputMax: float64(want), Limit: limit, LatencyMin: 10 * ms}
		if !boundsNear(r.Bounds, wantB) {
			t.Errorf("%d CPUs: bounds %+v, want %+v", n, r.Bounds, wantB)
		}
	})
}

// TestCafeMoreBaristas changes the blueprint's capacity, as a user trying
// a third and a fourth barista would: three make 375 lattes a second (3 ÷
// 8 ms); a fourth only 400, the espresso machine's 1 ÷ 2.5 ms, with the
// baristas waiting for the machine.
func TestCafeMoreBaristas(t *testing.T) {
	b := load(t, "cafe")
	for _, c := range []struct {
		baristas, lattes int
		limit            string
	}{{3, 375, "barista"}, {4, 400, "espresso"}} {
		b.Resources[1].Capacity = c.baristas
		r, err := simulate(b, fifo(8))
		if err != nil {
			t.Fatal(err)
		}
		if r.Lattes != c.lattes || r.Bounds.Limit != c.limit || r.Bounds.ThroughputMax != float64(c.lattes) {
			t.Errorf("%d baristas: %d lattes, bounds %+v; want %d lattes, limited by %s", c.baristas, r.Lattes, r.Bounds, c.lattes, c.limit)
		}
	}
	if c := load(t, "cafe").Resources[1].Capacity; c != 2 {
		t.Errorf("loading cafe.yaml again gives %d baristas, want 2: Run or a change leaked into the file's blueprint", c)
	}
}

// boundsNear compares bounds up to floating-point rounding in the rates.
func boundsNear(a, b model.Bounds) bool {
	near := func(x, y float64) bool { return x == y || math.Abs(x-y) <= 1e-9*math.Abs(y) }
	return near(a.CPU, b.CPU) && near(a.Structural, b.Structural) && near(a.ThroughputMax, b.ThroughputMax) &&
		a.Resource == b.Resource && a.Limit == b.Limit && a.LatencyMin == b.LatencyMin
}

// TestSplitpipeExample checks splitpipe.yaml: a latte is 4 ms of CPU but
// 3 ms long, the milk's 1 ms beside the coffee's 2; N customers and the
// stages share N CPUs, so the CPU bound, 250·N, holds up to the stages'
// 1000 a second. Every latte takes max(4, N) ms: up to 4 CPUs the
// branches wait for CPUs as much as the fork saves, and past 4 the N
// customers queue at the stages.
func TestSplitpipeExample(t *testing.T) {
	b := load(t, "splitpipe")
	eachCPUs(t, b, func(n int, r result) {
		want := min(250*n, 1000)
		lat := max(4, time.Duration(n)) * ms
		if r.Lattes != want || r.Latency.Min != lat || r.Latency.Max != lat {
			t.Errorf("%d CPUs: %d lattes, latency %v to %v; want %d, %v", n, r.Lattes, r.Latency.Min, r.Latency.Max, want, lat)
		}
		if wantUtil := float64(4*want) / 1000 / float64(n); r.CPUUtil != wantUtil {
			t.Errorf("%d CPUs: CPU utilization %v, want %v", n, r.CPUUtil, wantUtil)
		}
		for i, name := range []string{"grinder", "espresso", "steamer"} {
			// A stage is busy for its step's span, which includes any wait
			// for a CPU: at least 1 ms a latte.
			if m := r.Machines[i]; m.Name != name || m.Uses != int64(want) || m.BusyFrac < float64(want)/1000 || m.BusyFrac > 1 {
				t.Errorf("%d CPUs: machine %+v; want %s with %d uses, busy between %v and 1", n, m, name, want, float64(want)/1000)
			}
		}
		limit := "cpus"
		if n > 4 {
			limit = "grinder"
		}
		wantB := model.Bounds{CPU: 250 * float64(n), Structural: 1000, Resource: "grinder",
			ThroughputMax: float64(want), Limit: limit, LatencyMin: max(3*ms, 4*ms/time.Duration(n))}
		if r.Bounds != wantB {
			t.Errorf("%d CPUs: bounds %+v, want %+v", n, r.Bounds, wantB)
		}
	})
}

// TestWebserverExample checks webserver.yaml, an open loop with random
// durations, against what holds whatever the draws, and what its comment
// says. On 1 CPU the CPU is saturated and serves its bound, 1 ÷ 0.6 ms;
// the queue fills in about 3 s, which the warm-up waits for, and then
// requests are dropped and each served one has waited for the 64 + 1000
// ahead of it, 1064 × 0.6 ms ≈ 638 ms, in a window of 1 s as of 10 s. On 2 or more CPUs
// nothing is dropped and all 2000 a second are served, within Poisson
// noise (0.7 % is one standard deviation over 10 s). The database pool's
// busy fraction is the requests' hold time over its 4 connections, and a
// request's latency is no less than its service.
func TestWebserverExample(t *testing.T) {
	t.Parallel()
	b := load(t, "webserver")
	if b.Load.Rate != 2000 || b.Load.Arrivals != blueprint.Poisson || b.Load.Servers != 64 || b.Load.Queue != 1000 {
		t.Fatalf("load %+v", b.Load)
	}
	for n := 1; n <= 3; n++ {
		opt := fifo(n)
		opt.Dur = 10 * time.Second
		r, err := simulate(b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Service == nil || r.Service.Mean > r.Latency.Mean || r.Service.P99 > r.Latency.P99 || r.Little != 0 {
			t.Errorf("%d CPUs: service %+v, latency %+v, Little %v", n, r.Service, r.Latency, r.Little)
		}
		if n == 1 {
			// The file's comment says what its own command gives, over
			// the default window as over a long one.
			short, err := simulate(b, fifo(1))
			if err != nil {
				t.Fatal(err)
			}
			full := time.Duration(1064 * 0.6 * float64(ms))
			for _, r := range []result{r, short} {
				if r.Drops == 0 || r.CPUUtil < 0.999 || math.Abs(r.Throughput-r.Bounds.CPU) > 0.01*r.Bounds.CPU || !r.Steady() ||
					r.Bounds.Limit != "cpus" || math.Abs(float64(r.Latency.P50-full)) > 0.03*float64(full) || math.Abs(float64(r.Latency.P99-full)) > 0.03*float64(full) {
					t.Errorf("1 CPU over %v: %d drops, utilization %v, %v requests/s, p50 %v, p99 %v, bounds %+v, steady %v; want drops, a saturated CPU, the CPU bound, p50 and p99 about %v",
						r.Window, r.Drops, r.CPUUtil, r.Throughput, r.Latency.P50, r.Latency.P99, r.Bounds, r.Steady(), full)
				}
			}
			continue
		}
		if r.Drops != 0 || math.Abs(r.Throughput-2000) > 0.03*2000 || r.Bounds.Limit != "arrivals" || r.Bounds.ThroughputMax != 2000 {
			t.Errorf("%d CPUs: %d drops, %v requests/s, bounds %+v; want none dropped and 2000 ± 3%%", n, r.Drops, r.Throughput, r.Bounds)
		}
		db := machine(t, r, "db")
		if want := r.Throughput * 1.5e-3 / 4; math.Abs(db.BusyFrac-want) > 0.03*want {
			t.Errorf("%d CPUs: db busy %v, want %v ± 3%%", n, db.BusyFrac, want)
		}
	}
}
