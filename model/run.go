package model

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/sim"
)

// Validate reports what is wrong with cfg, if anything, without simulating:
// what Run would refuse. It lets a caller check every point of a study
// before spending time on any.
func (c Config) Validate() error {
	mode, err := c.validate()
	if err != nil {
		return err
	}
	s := sim.New(c.Seed)
	defer s.Stop()
	shop, err := newShop(s, mode, newSteps(c, s, sim.NewCPUs(s, c.CPUs)), c.Variant())
	if err != nil {
		return err
	}
	return c.advances(mode, shop.structure())
}

// StructureOf returns what cfg's mode declares its bounds from, with no
// simulation: the resources a drink holds and for how long, its CPU time
// and its critical path. It lets a caller judge a point, measured or
// modeled, resource by resource.
func StructureOf(cfg Config) (Structure, error) {
	mode, err := cfg.validate()
	if err != nil {
		return Structure{}, err
	}
	s := sim.New(cfg.Seed)
	defer s.Stop()
	shop, err := newShop(s, mode, newSteps(cfg, s, sim.NewCPUs(s, cfg.CPUs)), cfg.Variant())
	if err != nil {
		return Structure{}, err
	}
	return shop.structure(), nil
}

// advances refuses a closed loop whose drink takes no virtual time: its
// customers would order forever at one instant.
func (c Config) advances(mode fmt.Stringer, st structure) error {
	if c.Rate == 0 && st.CPU == 0 {
		return fmt.Errorf("%s in a closed loop: a drink takes no virtual time (every step it uses is 0), so the simulation could not advance; give its steps time, or give an open-loop rate", mode)
	}
	return nil
}

// Run simulates one point: cfg's mode on cfg's virtual CPUs under cfg's
// load, measured as the harness measures a real one, with the point's
// bounds. The same cfg gives the same Result.
func Run(cfg Config) (Result, error) {
	mode, err := cfg.validate()
	if err != nil {
		return Result{}, err
	}
	s := sim.New(cfg.Seed)
	defer s.Stop() // unwinds the processes that are still blocked
	cpus := cfg.newCPUs(s)
	shop, err := newShop(s, mode, newSteps(cfg, s, cpus), cfg.Variant())
	if err != nil {
		return Result{}, err
	}
	st := shop.structure()
	if err := cfg.advances(mode, st); err != nil {
		return Result{}, err
	}
	b := bounds(cfg, st)

	rec := Record{Latency: make([]time.Duration, 0, capacity(cfg, b))}
	if cfg.Rate > 0 {
		rec.Service = make([]time.Duration, 0, cap(rec.Latency))
	}
	Load{Workers: cfg.customers(), Rate: cfg.Rate, MaxQ: cfg.MaxQ, Warmup: cfg.Warmup, Duration: cfg.Duration}.Start(s, shop.brew, &rec)

	// Readings at the edges of the measured window, as sweep takes them
	// through the harness's OnWindow.
	meters := shop.meters()
	before := make([]reading, len(meters))
	s.RunUntil(cfg.Warmup)
	busy0 := cpus.Busy()
	for i, m := range meters {
		before[i] = m.read()
	}
	s.RunUntil(cfg.Warmup + cfg.Duration)

	r := Result{
		Lattes:     len(rec.Latency),
		Drops:      rec.Drops,
		Throughput: float64(len(rec.Latency)) / cfg.Duration.Seconds(),
		Latency:    Summarize(rec.Latency),
		CPUUtil:    float64(cpus.Busy()-busy0) / float64(time.Duration(cfg.CPUs)*cfg.Duration),
		Bounds:     b,
		Sched:      cfg.sched(),
		Seed:       cfg.Seed,
		Events:     s.Events(),
	}
	if cfg.Rate > 0 {
		svc := Summarize(rec.Service)
		r.Service = &svc
	} else if r.Throughput > 0 && r.Latency.Mean > 0 {
		r.Little = float64(cfg.customers()) / (r.Throughput * r.Latency.Mean.Seconds())
	}
	for i, m := range meters {
		d := m.read().sub(before[i])
		mm := Machine{Name: m.name, Uses: d.uses,
			BusyFrac: float64(d.held) / float64(cfg.Duration), WorkingFrac: float64(d.working) / float64(cfg.Duration)}
		if d.uses > 0 {
			mm.MeanWait = d.wait / time.Duration(d.uses)
		}
		r.Machines = append(r.Machines, mm)
	}
	return r, nil
}

// capacity sizes the latency slices once: the drinks the window can hold
// by the throughput bound, and a little over (jitter, edges). It is only a
// hint; the slices grow past it if they must.
func capacity(cfg Config, b Bounds) int {
	n := b.ThroughputMax*cfg.Duration.Seconds()*1.01 + float64(cfg.customers()) + 16
	return int(min(n, 1<<22))
}
