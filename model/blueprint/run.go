package blueprint

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

// Options are one point to simulate a blueprint at: the virtual CPUs and
// how they are scheduled, overrides of the file's load, the simulated time
// and the seed.
type Options struct {
	CPUs int // virtual CPUs, at least 1

	// Customers, when positive, overrides the file's customers (closed
	// loop) or servers (open loop), as the command line's --par.
	Customers int
	// Rate, when positive, makes the load open-loop at Rate orders per
	// second, whatever the file says (its servers, queue and arrivals
	// still apply if it gives them).
	Rate float64

	// Warmup is simulated first and not counted; Duration is the measured
	// window that follows it. An order counts if it completes inside the
	// window: at a time t with Warmup < t <= Warmup+Duration.
	Warmup, Duration time.Duration

	// Seed seeds every random duration and Poisson arrival: the same
	// blueprint, options and seed give the same result.
	Seed uint64

	// Sched is how the virtual CPUs are scheduled: "fifo", the idealized
	// machine whose results can be checked by hand, or "go", the Go
	// runtime's scheduler with Costs for its own work; "" means "go".
	Sched string
	Costs sim.Costs
	// Background is other processes' demand on the machine, under the go
	// policy (see sim.Background).
	Background sim.Background
	// Runtime, under the go policy, is the Go runtime whose scheduler
	// code it follows where versions differ, as model.Config's.
	Runtime sim.Runtime

	// Cancel, once closed, stops a simulation within a few milliseconds:
	// Run returns context.Canceled (see model.Config's Cancel).
	Cancel <-chan struct{}

	// Scale multiplies the duration of every step of that name (0.9 is
	// 10 % shorter); Workers adds workers to every line of the stage of
	// that name; Buffers sets the room in the channel into the stage of
	// that name. They are a causal profile's reliefs; nil changes nothing.
	Scale   map[string]float64
	Workers map[string]int
	Buffers map[string]int
}

// DefaultOptions are cpus CPUs under the go policy with the file's load,
// measured for 1 s after a 100 ms warm-up, with seed 1, as
// model.DefaultConfig. Set Sched to "fifo" for results to check by hand.
func DefaultOptions(cpus int) Options {
	return Options{CPUs: cpus, Warmup: 100 * time.Millisecond, Duration: time.Second, Seed: 1}
}

// sched is the policy's name, "" read as "go".
func (o Options) sched() string {
	if o.Sched == "" {
		return "go"
	}
	return o.Sched
}

// validate rejects options that cannot be simulated.
func (o Options) validate() error {
	switch {
	case o.CPUs < 1:
		return fmt.Errorf("cpus %d: want at least 1", o.CPUs)
	case o.Customers < 0:
		return fmt.Errorf("customers %d: want 0 (the file's) or more", o.Customers)
	case o.Duration <= 0:
		return fmt.Errorf("duration %v: want a positive duration", o.Duration)
	case o.Warmup < 0:
		return fmt.Errorf("warmup %v: want zero or a positive duration", o.Warmup)
	case !(o.Rate >= 0) || math.IsInf(o.Rate, 1): // NaN fails the first test
		return fmt.Errorf("rate %v: want a positive number of orders per second, or 0 for the file's load", o.Rate)
	case o.Sched != "" && o.Sched != "fifo" && o.Sched != "go":
		return fmt.Errorf("sched %q: want fifo or go", o.Sched)
	case o.Runtime != "" && o.Runtime != sim.RuntimeGo19:
		return fmt.Errorf("runtime %q: want \"\" (today's) or %s", o.Runtime, sim.RuntimeGo19)
	case o.Runtime != "" && o.sched() != "go":
		return fmt.Errorf("runtime %s: applies to the go policy only", o.Runtime)
	case !(o.Background.CPUs >= 0 && o.Background.CPUs < float64(o.CPUs)):
		return fmt.Errorf("background %v CPUs: want from 0 to less than the %d CPUs", o.Background.CPUs, o.CPUs)
	case o.Background.CPUs > 0 && o.Background.Burst <= 0:
		return fmt.Errorf("background burst %v: want a positive duration such as 1ms", o.Background.Burst)
	case o.Background.CPUs > 0 && o.sched() != "go":
		return fmt.Errorf("background: applies to the go policy only (fifo is the machine to itself)")
	}
	// Every cost is a duration; reading them by reflection keeps this
	// check right as the go policy gains costs.
	costs := reflect.ValueOf(o.Costs)
	for i := range costs.NumField() {
		if d, ok := costs.Field(i).Interface().(time.Duration); ok && d < 0 {
			return fmt.Errorf("costs: %s %v: want zero or a positive duration", costs.Type().Field(i).Name, d)
		}
	}
	return nil
}

// load is the load a run applies: the file's, with the options' overrides.
type load struct {
	Workload
	workers int // customers, or servers in an open loop
}

func (b *Blueprint) load(o Options) load {
	l := load{Workload: b.Load}
	if o.Rate > 0 {
		l.Rate = o.Rate
	}
	switch {
	case o.Customers > 0:
		l.workers = o.Customers
	case l.Rate > 0 && l.Servers > 0:
		l.workers = l.Servers
	case l.Rate == 0 && l.Customers > 0:
		l.workers = l.Customers
	default:
		l.workers = o.CPUs
	}
	return l
}

// check rejects a blueprint whose exported fields were changed into
// something that cannot run.
func (b *Blueprint) check() error {
	if b.flow == nil {
		return fmt.Errorf("blueprint: not parsed: make one with Load or Parse")
	}
	if n := b.nres; len(b.Resources) != n {
		return fmt.Errorf("%s: %d resources, but the file declares %d: steps refer to resources by position, so change their capacities only", b.File, len(b.Resources), n)
	}
	for _, r := range b.Resources {
		if r.Capacity < 1 {
			return fmt.Errorf("%s: resource %q: capacity %d: want a whole number, 1 or more", b.File, r.Name, r.Capacity)
		}
	}
	l := b.Load
	switch {
	case l.Customers < 0:
		return fmt.Errorf("%s: load: customers %d: want 0 (one per CPU) or more", b.File, l.Customers)
	case !(l.Rate >= 0) || math.IsInf(l.Rate, 1):
		return fmt.Errorf("%s: load: rate %v: want a positive number of orders per second, or 0 for a closed loop", b.File, l.Rate)
	case l.Servers < 0:
		return fmt.Errorf("%s: load: servers %d: want 0 (one per CPU) or more", b.File, l.Servers)
	case l.Queue < 0:
		return fmt.Errorf("%s: load: queue %d: want 0 or more", b.File, l.Queue)
	case l.Arrivals != Even && l.Arrivals != Poisson:
		return fmt.Errorf("%s: load: arrivals %q: want even or poisson", b.File, l.Arrivals)
	}
	return nil
}

// world is one simulation of a blueprint: the engine, its CPUs, and the
// running resources and pipelines the nodes act on.
type world struct {
	opt    Options
	s      *sim.Sim
	cpus   *sim.CPUs
	pools  []*pool    // by resource index
	stages []*meter   // by stage index
	pipes  []*pipeRun // by pipeline id
}

// Run simulates the blueprint at one point, measured as brewput's harness
// measures a real program and as package model measures its modes: a
// closed loop of customers or an open loop of arrivals, a warm-up (for an
// open loop, until its queue holds steady: see model.Result.Steady), then a
// window in which every completed order counts. The result's Lattes are
// the orders completed in the window, whatever the blueprint's unit; its
// Machines are the resources, then the pipelines' stages, each with its
// busy fraction (mean units in use ÷ capacity) and mean wait. The same
// blueprint and options give the same result.
func (b *Blueprint) Run(opt Options) (model.Result, error) {
	if err := opt.validate(); err != nil {
		return model.Result{}, err
	}
	if err := b.check(); err != nil {
		return model.Result{}, err
	}
	if err := b.checkReliefs(opt); err != nil {
		return model.Result{}, err
	}
	l := b.load(opt)
	r, err := b.run(opt, l)
	if err != nil {
		return model.Result{}, err
	}
	for range model.MaxRefills {
		w, ok := r.Refill(l.Queue + l.workers)
		if l.Rate == 0 || !ok {
			break
		}
		opt.Warmup = w
		if r, err = b.run(opt, l); err != nil {
			return model.Result{}, err
		}
	}
	return r, nil
}

// run is Run of a checked blueprint under load l, with the warm-up the
// bounds call for.
func (b *Blueprint) run(opt Options, l load) (model.Result, error) {
	bounds := b.bounds(opt, l)
	customers := l.workers // an open loop's servers do not cycle (see model.SteadyWarmup)
	if l.Rate > 0 {
		customers = 0
		opt.Warmup = model.FillWarmup(opt.Warmup, opt.Duration, l.Rate, l.Queue+l.workers, bounds.Serves(l.workers))
	}
	opt.Warmup = model.SteadyWarmup(opt.Warmup, customers, bounds)

	s := sim.New(opt.Seed)
	defer s.Stop() // unwinds the processes still blocked at the end
	s.SetCancel(opt.Cancel)
	w := &world{s: s, opt: opt}
	if opt.sched() == "fifo" {
		w.cpus = sim.NewCPUs(s, opt.CPUs)
	} else {
		w.cpus = sim.NewGoCPUs(s, opt.CPUs, opt.Costs)
		w.cpus.SetRuntime(opt.Runtime)
		w.cpus.SetBackground(opt.Background)
	}
	for _, r := range b.Resources {
		w.pools = append(w.pools, newPool(s, &meter{name: r.Name, capacity: r.Capacity}, r.Locks))
	}
	for _, pp := range b.pipes {
		for _, st := range pp.stages {
			w.stages = append(w.stages, &meter{name: st.name, capacity: st.workersAt(opt) * pp.lines})
		}
	}
	for _, pp := range b.pipes { // the stages wait for orders before any arrive
		w.pipes = append(w.pipes, pp.start(w))
	}

	// The load is package model's, which mirrors brewput's harness, so that
	// a blueprint of a coffee mode gives what the mode's model gives.
	rec := &model.Record{Latency: make([]time.Duration, 0, capacity(opt, l, bounds))}
	if l.Rate > 0 {
		rec.Service = make([]time.Duration, 0, cap(rec.Latency))
	}
	order := func(p *sim.Proc) { b.flow.run(w, p) }
	model.Load{
		Workers: l.workers, Rate: l.Rate, MaxQ: l.Queue, Poisson: l.Arrivals == Poisson,
		Warmup: opt.Warmup, Duration: opt.Duration, Seed: opt.Seed,
	}.Start(s, order, rec)

	// Readings at the edges of the window, after every event of that
	// instant.
	meters := make([]*meter, 0, len(w.pools)+len(w.stages))
	for _, pl := range w.pools {
		meters = append(meters, pl.meter)
	}
	meters = append(meters, w.stages...)
	before := make([]reading, len(meters))
	s.RunUntil(opt.Warmup)
	if s.Cancelled() {
		return model.Result{}, context.Canceled
	}
	busy0, in0 := w.cpus.Busy(), rec.InSystem
	for i, m := range meters {
		before[i] = m.read(s.Now())
	}
	s.RunUntil(opt.Warmup + opt.Duration)
	if s.Cancelled() {
		return model.Result{}, context.Canceled
	}

	r := model.Result{
		Lattes:     len(rec.Latency),
		Drops:      rec.Drops,
		Throughput: float64(len(rec.Latency)) / opt.Duration.Seconds(),
		Latency:    model.Summarize(rec.Latency),
		CPUUtil:    float64(w.cpus.Busy()-busy0) / float64(time.Duration(opt.CPUs)*opt.Duration),
		Bounds:     bounds,
		Sched:      opt.sched(),
		Harness:    "brewput",
		Seed:       opt.Seed,
		Events:     s.Events(),
		Warmup:     opt.Warmup,
		Window:     opt.Duration,
		Arrived:    rec.Arrived,
		InSystem:   [2]int{in0, rec.InSystem},
	}
	if l.Rate > 0 {
		svc := model.Summarize(rec.Service)
		r.Service = &svc
	} else {
		r.Little = model.Little(l.workers, r.Throughput, rec.Cycles, r.Lattes)
	}
	for i, m := range meters {
		now := m.read(s.Now())
		uses, busy, wait := now.uses-before[i].uses, now.busy-before[i].busy, now.wait-before[i].wait
		unitTime := float64(time.Duration(m.capacity) * opt.Duration)
		mm := model.Machine{Name: m.name, Uses: uses, BusyFrac: float64(busy) / unitTime,
			WorkingFrac: float64(now.working-before[i].working) / unitTime}
		if uses > 0 {
			mm.MeanWait = wait / time.Duration(uses)
		}
		r.Machines = append(r.Machines, mm)
	}
	return r, nil
}

// capacity sizes the latency slices once, by the throughput bound and a
// little over; it is only a hint.
func capacity(o Options, l load, b model.Bounds) int {
	n := b.ThroughputMax*o.Duration.Seconds()*1.01 + float64(l.workers) + 16
	if math.IsInf(n, 0) || math.IsNaN(n) {
		return 1024
	}
	return int(min(n, 1<<22))
}
