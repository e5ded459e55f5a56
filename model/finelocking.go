package model

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/sim"
)

// fineLocking mirrors coffee/finelocking.go: each machine has its own lock,
// held only for that machine's step, and the combine step takes no lock.
type fineLocking struct {
	steps                      steps
	grinder, espresso, steamer *lockedMachine
}

func newFineLocking(s *sim.Sim, steps steps) *fineLocking {
	return &fineLocking{
		steps:    steps,
		grinder:  newLockedMachine(s, "grinder", steps.cpus),
		espresso: newLockedMachine(s, "espresso", steps.cpus),
		steamer:  newLockedMachine(s, "steamer", steps.cpus),
	}
}

// brew is coffee's fineLocking.Brew for a latte.
func (f *fineLocking) brew(p *sim.Proc) {
	f.grinder.use(p, f.steps.grind())
	f.espresso.use(p, f.steps.press())
	f.steamer.use(p, f.steps.steam())
	f.steps.combine(p)
}

func (f *fineLocking) machines() []*lockedMachine {
	return []*lockedMachine{f.grinder, f.espresso, f.steamer}
}

// lockedMachine mirrors coffee's lockedMachine: a machine with its own
// mutex. The mutex's readings are the machine's meter: it is held exactly
// for the machine's step.
type lockedMachine struct {
	mu   *sim.Mutex
	cpus *sim.CPUs
}

func newLockedMachine(s *sim.Sim, name string, cpus *sim.CPUs) *lockedMachine {
	return &lockedMachine{mu: sim.NewMutex(s, name), cpus: cpus}
}

// use waits for the machine's lock, runs one step, and lets go.
func (m *lockedMachine) use(p *sim.Proc, d time.Duration) {
	m.mu.Lock(p)
	m.cpus.Burn(p, d) // Machine.use: clock.Burn(d)
	m.mu.Unlock(p)
}

// steps mirrors coffee.Steps: the steps' durations, jittered from the
// simulation's seeded source, each burned on the shop's CPUs.
type steps struct {
	Config
	sim  *sim.Sim
	cpus *sim.CPUs
}

// machine returns one machine step's duration, jittered as coffee's
// Steps.machine does.
func (s steps) machine(d time.Duration) time.Duration {
	if s.Jitter <= 0 {
		return d
	}
	d += time.Duration(s.sim.Rand().Int64N(int64(s.Jitter)+1)) - s.Jitter/2
	return max(d, 0)
}

func (s steps) combine(p *sim.Proc)  { s.cpus.Burn(p, s.Combine) }
func (s steps) grind() time.Duration { return s.machine(s.Grind) }
func (s steps) press() time.Duration { return s.machine(s.Press) }
func (s steps) steam() time.Duration { return s.machine(s.Steam) }

// Finelocking simulates the closed-loop finelocking shop of cfg: each of
// cfg's customers orders a latte again as soon as served, as the harness's
// closed-loop workers do.
func Finelocking(cfg Config) (Result, error) {
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	s := sim.New(cfg.Seed)
	cpus := sim.NewCPUs(s, cfg.CPUs)
	shop := newFineLocking(s, steps{Config: cfg, sim: s, cpus: cpus})

	end := cfg.Warmup + cfg.Duration
	lat := make(latencies, 0, cfg.latteBound())
	for range cfg.customers() {
		s.Go(func(p *sim.Proc) { // a closed-loop worker of the harness
			for {
				start := p.Now()
				shop.brew(p)
				if now := p.Now(); now > cfg.Warmup {
					lat = append(lat, now-start)
				}
			}
		})
	}

	// Readings at the edges of the measured window.
	ms := shop.machines()
	before := make([]sim.Reading, len(ms))
	s.RunUntil(cfg.Warmup)
	busy0 := cpus.Busy()
	for i, m := range ms {
		before[i] = m.mu.Read()
	}
	s.RunUntil(end)
	r := Result{
		Lattes:     len(lat),
		Throughput: float64(len(lat)) / cfg.Duration.Seconds(),
		Latency:    lat.summarize(),
		CPUUtil:    float64(cpus.Busy()-busy0) / float64(time.Duration(cfg.CPUs)*cfg.Duration),
		Events:     s.Events(),
	}
	for i, m := range ms {
		d := m.mu.Read().Sub(before[i])
		mm := Machine{Name: m.mu.Name(), Uses: d.Uses, BusyFrac: float64(d.Busy) / float64(cfg.Duration)}
		if d.Uses > 0 {
			mm.MeanWait = d.Wait / time.Duration(d.Uses)
		}
		r.Machines = append(r.Machines, mm)
	}
	s.Stop()
	return r, nil
}

// validate rejects a configuration that cannot be simulated.
func (c Config) validate() error {
	switch {
	case c.CPUs < 1:
		return fmt.Errorf("cpus %d: want at least 1", c.CPUs)
	case c.Customers < 0:
		return fmt.Errorf("customers %d: want 0 (one per CPU) or more", c.Customers)
	case c.Duration <= 0:
		return fmt.Errorf("duration %v: want a positive duration", c.Duration)
	case c.Warmup < 0:
		return fmt.Errorf("warmup %v: want zero or a positive duration", c.Warmup)
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"grind", c.Grind}, {"press", c.Press}, {"steam", c.Steam}, {"latte", c.Combine}, {"jitter", c.Jitter}} {
		if f.d < 0 {
			return fmt.Errorf("%s %v: want zero or a positive duration such as 1ms", f.name, f.d)
		}
	}
	if c.Grind+c.Press+c.Steam+c.Combine+c.Jitter == 0 {
		return fmt.Errorf("every step is 0: a latte would take no time, and the simulation could not advance")
	}
	return nil
}

// latteBound returns how many lattes the window can hold at most, by the
// CPU bound (each latte burns at least the steps' CPU time less the
// jitter), to size the latency slice once; it is only a capacity hint.
func (c Config) latteBound() int {
	per := c.Grind + c.Press + c.Steam + c.Combine - 3*c.Jitter/2
	if per <= 0 {
		return 1024
	}
	return min(int(time.Duration(c.CPUs)*c.Duration/per)+c.customers(), 1<<24)
}
