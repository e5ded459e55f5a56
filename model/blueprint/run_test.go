package blueprint_test

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

func parse(t *testing.T, yaml string) *blueprint.Blueprint {
	t.Helper()
	b, err := blueprint.Parse("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeterministic: with random durations and Poisson arrivals, the same
// seed gives the same result, under either policy, and another seed a
// different one.
func TestDeterministic(t *testing.T) {
	b := load(t, "webserver")
	for _, sched := range []string{"fifo", "go"} {
		opt := fifo(2)
		opt.Policy.Sched = sched
		x, y := run(t, b, opt), run(t, b, opt)
		opt.Policy.Seed = 2
		z := run(t, b, opt)
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s: same seed, different results:\n%+v\n%+v", sched, x, y)
		}
		if reflect.DeepEqual(x, z) {
			t.Errorf("%s: seeds 1 and 2 gave the same result: %+v", sched, x)
		}
	}
}

// TestConcurrentRuns runs one Blueprint from several goroutines at once
// (under -race, this checks that Run shares nothing mutable between runs)
// and gets the same result in each.
func TestConcurrentRuns(t *testing.T) {
	b := load(t, "cafe")
	want := run(t, b, fifo(4))
	var wg sync.WaitGroup
	results := make([]result, 4)
	errs := make([]error, 4)
	for i := range results {
		wg.Go(func() { results[i], errs[i] = simulate(b, fifo(4)) })
	}
	wg.Wait()
	for i, r := range results {
		if errs[i] != nil || !reflect.DeepEqual(r, want) {
			t.Errorf("run %d: %v, %+v; want %+v", i, errs[i], r, want)
		}
	}
}

// TestOverrides: Options.Customers overrides the file's customers, and
// Options.Rate turns a closed loop into an open one.
func TestOverrides(t *testing.T) {
	b := load(t, "finelocking")

	// 8 customers on 2 CPUs are held by the CPU bound, 2 ÷ 4 ms = 500
	// lattes a second, and by Little's law each takes 8 ÷ 500/s = 16 ms.
	opt := fifo(2)
	opt.Par = 8
	r := run(t, b, opt)
	if r.Lattes != 500 || r.CPUUtil != 1 || r.Latency.Mean != 16*ms || r.Bounds.Limit != "cpus" {
		t.Errorf("8 customers on 2 CPUs: %d lattes, utilization %v, mean %v, bounds %+v; want 500, 1, 16ms, cpus", r.Lattes, r.CPUUtil, r.Latency.Mean, r.Bounds)
	}

	// 800 arrivals a second, evenly spaced, on 4 CPUs with a server each:
	// every one served in 4 ms, none dropped.
	opt = fifo(4)
	opt.Rate = 800
	r = run(t, b, opt)
	if r.Lattes != 800 || r.Drops != 0 || r.Latency.Max != 4*ms || r.Service == nil || r.Service.Max != 4*ms || r.Bounds.Limit != "arrivals" {
		t.Errorf("rate 800 on 4 CPUs: %d lattes, %d drops, latency %+v, service %+v, bounds %+v; want 800, 0, 4ms", r.Lattes, r.Drops, r.Latency, r.Service, r.Bounds)
	}

	// 800 a second on 1 CPU, which serves 250: the queue of 1000 fills
	// at 550 a second, and the orders let in before it was full are
	// served 1001 ÷ 250 s later; the warm-up waits for both, a quarter
	// more, and the window sees the steady state: 250 served, 550
	// dropped, each served order having waited for the 1000 ahead of it,
	// 4 ms each, less up to one gap between arrivals (1.25 ms).
	opt = fifo(1)
	opt.Rate = 800
	r = run(t, b, opt)
	if r.Lattes != 250 || r.Drops != 550 || r.Latency.Min < 1001*4*ms-1250*time.Microsecond || r.Latency.Max > 1001*4*ms ||
		r.Bounds.Limit != "cpus" || !r.Steady() || (r.Warmup-7280*ms).Abs() > time.Microsecond {
		t.Errorf("rate 800 on 1 CPU: %d lattes, %d drops, latency %+v, bounds %+v, warm-up %v, growth %d; want 250, 550 dropped, 4.004 s each, steady",
			r.Lattes, r.Drops, r.Latency, r.Bounds, r.Warmup, r.Growth())
	}
	// With no queue, an arrival that finds the one server busy is dropped.
	// The server takes an arrival every 5 ms (4 ms of work, then the next
	// arrival on the 1.25 ms grid), 200 a second, and drops the other 600.
	b.Load.Queue = 0
	r = run(t, b, opt)
	if r.Lattes != 200 || r.Drops != 600 || r.Latency.Max != 4*ms {
		t.Errorf("rate 800 on 1 CPU, no queue: %d lattes, %d drops, latency %+v; want 200, 600, 4ms", r.Lattes, r.Drops, r.Latency)
	}
}

// TestPoolsAndStages checks capacity-aware meters and bounds by hand. A
// pool of 3 units, each held 1 ms, serves 3000 orders a second with 6
// customers on 6 CPUs; by Little's law an order takes 6 ÷ 3000/s = 2 ms,
// 1 ms of it waiting. A pipeline's stage of 2 workers at 2 ms an order
// keeps up with a stage of 1 at 1 ms: both allow 1000 a second, both are
// busy all the time; two lines allow 2000.
func TestPoolsAndStages(t *testing.T) {
	r := run(t, parse(t, "resources: {desk: 3}\nload: {customers: 6}\nsteps: [{name: work, duration: 1ms, holds: [desk]}]\n"), fifo(6))
	want := use{Name: "desk", Uses: 3000, BusyFrac: 1, WorkingFrac: 1, MeanWait: ms}
	if r.Lattes != 3000 || r.Latency.Mean != 2*ms || !reflect.DeepEqual(r.Machines, []use{want}) ||
		r.Bounds.Structural != 3000 || r.Bounds.Resource != "desk" {
		t.Errorf("pool of 3: %d orders, mean %v, machines %+v, bounds %+v; want 3000, 2ms, %+v", r.Lattes, r.Latency.Mean, r.Machines, r.Bounds, want)
	}

	for lines := 1; lines <= 2; lines++ {
		b := parse(t, `
load: {customers: 8}
steps:
  - pipeline:
      - {name: slow, duration: 2ms, workers: 2}
      - {name: fast, duration: 1ms}
    buffer: 1
    lines: `+string(rune('0'+lines))+"\n")
		r := run(t, b, fifo(8))
		n := 1000 * lines
		if r.Lattes != n || r.Bounds.Structural != float64(n) || r.Bounds.Resource != "slow" || r.Bounds.LatencyMin != 3*ms {
			t.Errorf("%d lines: %d orders, bounds %+v; want %d, structural %d by slow, latency 3ms", lines, r.Lattes, r.Bounds, n, n)
		}
		for _, m := range r.Machines {
			if m.Uses != int64(n) || m.BusyFrac != 1 {
				t.Errorf("%d lines: %+v; want %d uses, busy 1", lines, m, n)
			}
		}
	}
}

// TestLocks: a resource of locks is as many mutexes, each use locking one
// drawn at random. Two customers on two CPUs holding one of two locks the
// whole time collide half the time, where a pool of two units serves both
// at once; a resource of one lock is a mutex either way.
func TestLocks(t *testing.T) {
	const steps = "load: {customers: 2}\nsteps: [{name: work, duration: 1ms, holds: [shard]}]\n"
	pooled := run(t, parse(t, "resources: {shard: 2}\n"+steps), fifo(2))
	locked := run(t, parse(t, "resources: {shard: {locks: 2}}\n"+steps), fifo(2))
	if pooled.Lattes != 2000 {
		t.Errorf("pool of 2: %d orders, want 2000", pooled.Lattes)
	}
	// Every millisecond a customer draws a lock while the other holds
	// (or draws) one: half the time they are the same and one order is
	// served in it, else two: 1.5 orders a millisecond.
	if locked.Lattes < 1450 || locked.Lattes > 1550 {
		t.Errorf("two locks drawn at random: %d orders, want about 1500", locked.Lattes)
	}
	if b := locked.Bounds; b.Structural != 2000 || b.Resource != "shard" {
		t.Errorf("two locks: bounds %+v; want 2000 by shard (the locks, evenly used)", b)
	}
	one := run(t, parse(t, "resources: {shard: {locks: 1}}\n"+steps), fifo(2))
	if one.Lattes != 1000 {
		t.Errorf("one lock: %d orders, want 1000", one.Lattes)
	}
}

// TestRWLocks: {kind: rwmutex, locks: N} is N RWMutexes, each use taking
// one drawn at random: two customers on two CPUs writing one of two for
// the whole order collide half the time, as two mutexes do, and reading
// never do, each reading on its own.
func TestRWLocks(t *testing.T) {
	const res = "resources: {shard: {kind: rwmutex, locks: 2}}\nload: {customers: 2}\n"
	written := run(t, parse(t, res+"steps: [{name: work, duration: 1ms, holds: [shard]}]\n"), fifo(2))
	if written.Lattes < 1450 || written.Lattes > 1550 {
		t.Errorf("two RWMutexes written: %d orders, want about 1500", written.Lattes)
	}
	read := run(t, parse(t, res+"steps: [{name: work, duration: 1ms, shares: [shard]}]\n"), fifo(2))
	if read.Lattes != 2000 {
		t.Errorf("two RWMutexes read: %d orders, want 2000", read.Lattes)
	}
	if m := written.Machines[0]; m.Uses != int64(written.Lattes) {
		t.Errorf("written: %+v; want a use an order, %d", m, written.Lattes)
	}
}

// TestNoCPU: a step with cpu: false waits without a CPU, holding its
// resource: 4 customers on 1 CPU each wait 10 ms on one of 4 connections,
// 400 orders a second with the CPU idle; the critical path bounds
// latency, and the CPU bounds nothing.
func TestNoCPU(t *testing.T) {
	b := parse(t, "resources: {conn: 4}\nload: {customers: 4}\nsteps: [{name: query, duration: 10ms, holds: [conn], cpu: false}]\n")
	r := run(t, b, fifo(1))
	if r.Lattes != 400 || r.CPUUtil != 0 || r.Machines[0].BusyFrac != 1 || !math.IsInf(r.Bounds.CPU, 1) ||
		r.Bounds.ThroughputMax != 400 || r.Bounds.LatencyMin != 10*ms {
		t.Errorf("%d orders, CPU %v, machines %+v, bounds %+v; want 400, 0, conn busy 1, no CPU bound, 400 at most, 10ms", r.Lattes, r.CPUUtil, r.Machines, r.Bounds)
	}
}

// TestAnchorsAndMerge: YAML anchors under x- keys and merge keys make
// templates of steps. This is finelocking.yaml with a 2 ms combine, so a
// latte is 5 ms of CPU: N customers on N CPUs make min(200·N, 1000) a
// second, each latte taking max(5, N) ms.
func TestAnchorsAndMerge(t *testing.T) {
	b := parse(t, `
x-step: &step {duration: 1ms}
resources: {grinder: 1, espresso: 1, steamer: 1}
steps:
  - {<<: *step, name: grind, holds: [grinder]}
  - {<<: *step, name: press, holds: [espresso]}
  - {<<: *step, name: steam, holds: [steamer]}
  - {<<: *step, name: combine, duration: 2ms}   # its own duration wins over the template's
`)
	for n := 1; n <= 8; n++ {
		r := run(t, b, fifo(n))
		want, lat := min(200*n, 1000), max(5, time.Duration(n))*ms
		if r.Lattes != want || r.Latency.Min != lat || r.Latency.Max != lat {
			t.Errorf("%d CPUs: %d lattes, latency %v to %v; want %d, %v", n, r.Lattes, r.Latency.Min, r.Latency.Max, want, lat)
		}
	}
	if b.Name != "test" || b.Unit != "orders" || b.Load.Customers != 0 || b.Load.Rate != 0 {
		t.Errorf("defaults: name %q, unit %q, load %+v; want test, orders, one customer per CPU", b.Name, b.Unit, b.Load)
	}
}

// TestBounds asks for cafe.yaml's bounds without simulating.
func TestBounds(t *testing.T) {
	cfg := fifo(8)
	cfg.System = load(t, "cafe")
	bd, err := cfg.Bounds()
	if err != nil {
		t.Fatal(err)
	}
	want := model.Bounds{CPU: 800, Structural: 250, Resource: "barista", ThroughputMax: 250, Limit: "barista", LatencyMin: 10 * ms}
	if !boundsNear(bd, want) {
		t.Errorf("bounds %+v, want %+v", bd, want)
	}
}

// TestRunErrors: options that cannot run, and a blueprint changed into
// one that cannot, are errors that say what is wrong.
func TestRunErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		mod  func(*blueprint.Blueprint, *model.Config)
		want string
	}{
		{"no CPUs", func(_ *blueprint.Blueprint, o *model.Config) { o.CPUs = 0 }, "cpus 0: want at least 1"},
		{"negative customers", func(_ *blueprint.Blueprint, o *model.Config) { o.Par = -1 }, "par is -1; want 0 (one per CPU) or more"},
		{"no window", func(_ *blueprint.Blueprint, o *model.Config) { o.Dur = 0 }, "dur is 0s; want a positive duration"},
		{"negative warm-up", func(_ *blueprint.Blueprint, o *model.Config) { o.Warmup = -ms }, "warmup is -1ms; want zero or a positive duration"},
		{"NaN rate", func(_ *blueprint.Blueprint, o *model.Config) { o.Rate = math.NaN() },
			"rate NaN: want a positive number of arrivals per second, or 0"},
		{"unknown policy", func(_ *blueprint.Blueprint, o *model.Config) { o.Policy.Sched = "rr" }, `sched "rr": want fifo or go`},
		{"background of every CPU", func(_ *blueprint.Blueprint, o *model.Config) {
			o.Policy.Sched, o.Policy.Background = "go", results.Background{CPUs: 2, Burst: ms}
		},
			"background 2 CPUs: want from 0 to less than the 2 CPUs"},
		{"background under fifo", func(_ *blueprint.Blueprint, o *model.Config) {
			o.Policy.Background = results.Background{CPUs: 0.5, Burst: ms}
		},
			"background: applies to the go policy only (fifo is the machine to itself)"},
		{"negative cost", func(_ *blueprint.Blueprint, o *model.Config) { o.Costs.Wake = -1 }, "costs: Wake -1ns: want zero or a positive duration"},
		{"zero capacity", func(b *blueprint.Blueprint, _ *model.Config) { b.Resources[0].Capacity = 0 },
			`cafe.yaml: resource "cashier": capacity 0: want a whole number, 1 or more`},
		{"resource removed", func(b *blueprint.Blueprint, _ *model.Config) { b.Resources = b.Resources[1:] },
			"cafe.yaml: 2 resources, but the file declares 3: steps refer to resources by position, so change their capacities only"},
		{"unknown arrivals", func(b *blueprint.Blueprint, _ *model.Config) { b.Load.Arrivals = "bursty" },
			`cafe.yaml: load: arrivals "bursty": want even or poisson`},
	} {
		b := load(t, "cafe")
		b.File = "cafe.yaml"
		opt := fifo(2)
		c.mod(b, &opt)
		if _, err := simulate(b, opt); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.name, err, c.want)
		}
	}
	if _, err := simulate(new(blueprint.Blueprint), fifo(1)); err == nil {
		t.Error("a zero Blueprint ran")
	}
	if _, err := blueprint.Load("no-such-file.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestEveryExampleUnderGo runs each example under the go policy with
// costs, where results are not exact, against what must hold anyway:
// throughput at most the bounds allow (plus the window's edge), and
// Little's law in a closed loop.
func TestEveryExampleUnderGo(t *testing.T) {
	for _, name := range []string{"finelocking", "cafe", "splitpipe", "webserver"} {
		b := load(t, name)
		for _, n := range []int{1, 3, 8} {
			opt := goAt(n)
			opt.Costs.Switch, opt.Costs.Wake, opt.Costs.MutexHandoff, opt.Costs.ChanHandoff = 2*time.Microsecond, 5*time.Microsecond, time.Microsecond, time.Microsecond
			r := run(t, b, opt)
			if r.Lattes == 0 || r.Sched != "go" || r.Throughput > r.Bounds.ThroughputMax*1.05+10 {
				t.Errorf("%s on %d CPUs: %d orders, %v/s under %q; bounds %+v", name, n, r.Lattes, r.Throughput, r.Sched, r.Bounds)
			}
			if b.Load.Rate == 0 && math.Abs(r.Little-1) > 0.02 {
				t.Errorf("%s on %d CPUs: Little's law gives %v, want 1", name, n, r.Little)
			}
		}
	}
}

// TestPoint: a blueprint's result as a results point carries its name,
// unit and load.
func TestPoint(t *testing.T) {
	b := load(t, "webserver")
	cfg := model.SystemConfig(b, 2)
	cfg.Policy.Sched = "fifo"
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := ps[0]; p.Source != "model" || p.Mode != "webserver" || p.Unit != "requests/s" || p.CPUs != 2 || p.Par != 64 ||
		p.Rate != 2000 || p.MaxQ != 1000 || p.Ops == 0 || len(p.Machines()) != 1 || p.Steps() != (results.Steps{}) {
		t.Errorf("point %+v", p)
	}
}

// TestExponentialDrawsInARun checks that a run draws from its seeded
// source: the mean of a closed loop's exponential step, measured as the
// mean latency of a single customer that never waits, is the step's mean.
func TestExponentialDrawsInARun(t *testing.T) {
	b, err := blueprint.Parse("exp.yaml", []byte("load: {customers: 1}\nsteps: [{name: wait, duration: {exponential: 2ms}, cpu: false}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := model.SystemConfig(b, 1)
	cfg.Policy.Sched, cfg.Dur, cfg.Policy.Seed = "fifo", 200*time.Second, 7
	r, err := point(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 100 000 draws: the mean's standard error is 2 ms/√100000 ≈ 0.3 %.
	if got := r.Latency.Mean; math.Abs(got-2) > 0.015*2 {
		t.Errorf("mean of %d exponential draws %vms, want 2ms ± 1.5%%", r.Ops, got)
	}
	if r.Metrics[results.Util] != 0 {
		t.Errorf("a cpu: false step used the CPU: utilization %v", r.Metrics[results.Util])
	}
}
