package limits

import (
	"fmt"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Mode profiles one configuration of the coffee shop: cfg's mode, load,
// steps, CPUs and scheduling policy, simulated as it is and with each
// relief, with cfg's seed.
func ProfileMode(cfg model.Config) (*Profile, error) {
	ps, err := ProfileModes([]model.Config{cfg})
	if err != nil {
		return nil, err
	}
	return ps[0], nil
}

// Modes profiles every configuration, running the simulations as many at
// once as there are CPUs. The first error is returned, with the profiles
// that succeeded (nil for the others).
func ProfileModes(cfgs []model.Config) ([]*Profile, error) {
	ts := make([]target, len(cfgs))
	for i, c := range cfgs {
		s, err := newShop(c)
		if err != nil {
			return nil, err
		}
		ts[i] = s
	}
	ps, errs := profileAll(ts)
	for _, err := range errs {
		if err != nil {
			return ps, err
		}
	}
	return ps, nil
}

// shop is a configuration of the coffee shop, as a profile's target.
// Its costs' Range, if any, gives the point as it is its band, and no
// relief one: a band is the point estimate's uncertainty, and every
// relief's gain is measured against the point estimate, both simulated
// with the same (median) costs.
type shop struct {
	cfg   model.Config
	rng   *model.Range
	mode  coffee.Mode
	drink coffee.Drink
}

func newShop(cfg model.Config) (*shop, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := cfg.Range
	cfg.Range = nil
	return &shop{cfg: cfg, rng: rng, mode: cfg.Mode, drink: coffee.DrinkOf(cfg.Mode)}, nil
}

func (s *shop) system() string {
	return fmt.Sprintf("%s on %s", s.mode, format.Count(s.cfg.CPUs, "CPU"))
}

func (s *shop) openLoop() float64 { return s.cfg.Rate }

func (s *shop) model() string { return label(s.cfg.Sched, s.cfg.Runtime, s.cfg.Costs) }

// customers is the configuration's customers (servers): one per CPU
// unless set.
func (s *shop) customers() int {
	if s.cfg.Customers > 0 {
		return s.cfg.Customers
	}
	return s.cfg.CPUs
}

// who is what the load's workers are called: customers, or an open
// loop's servers.
func (s *shop) who() string {
	if s.cfg.Rate > 0 {
		return "server"
	}
	return "customer"
}

// lines is the number of the pipeline's lines (multipipe-N's N), 1 for
// every other mode.
func (s *shop) lines() int {
	if s.mode.Family == "multipipe" {
		return s.mode.N
	}
	return 1
}

func (s *shop) pipeline() bool {
	return map[string]bool{"linearpipe": true, "splitpipe": true, "multipipe": true, "americanopipe": true, "espressopipe": true}[s.mode.Family]
}

// copies is how many machines of kind the configuration has (per line in
// a pipeline).
func (s *shop) copies(kind string) int {
	def := 1
	if s.mode.Family == "multi" {
		def = s.mode.N
	}
	return max(s.cfg.Copies.Kind(kind), def)
}

// buffer is the room in the channel into kind's stage.
func (s *shop) buffer(kind string) int {
	if n := s.cfg.Buffers.Kind(kind); n > 0 {
		return n
	}
	if s.mode.Family == "multipipe" {
		return 1
	}
	return s.mode.N
}

// apply is the configuration with k's reliefs.
func (s *shop) apply(k knobs) model.Config {
	c := s.cfg
	if k.cpus > 0 {
		c.CPUs += k.cpus
		c.Customers = s.customers() // the same customers, unless k says more
	}
	if k.customers > 0 {
		c.Customers = k.customers
	}
	scale := func(d time.Duration, step string) time.Duration {
		if f, ok := k.scale[step]; ok {
			return time.Duration(float64(d) * f)
		}
		return d
	}
	c.Grind, c.Press, c.Steam, c.Combine = scale(c.Grind, "grind"), scale(c.Press, "press"), scale(c.Steam, "steam"), scale(c.Combine, "combine")
	for kind, n := range k.copies {
		c.Copies = c.Copies.With(kind, s.copies(kind)+n)
	}
	for kind, n := range k.buffers {
		c.Buffers = c.Buffers.With(kind, n)
	}
	c.Split = c.Split || k.split
	return c
}

func (s *shop) config(k knobs) (model.Config, bool) { return s.apply(k), true }

func (s *shop) run(k knobs) (results.Point, error) { return modePoint(s.simulated(k)) }

// simulated is the configuration with k's reliefs as it is simulated: with
// the costs' Range for the shop as it is, a probe for a relief, whose gain
// needs its throughput to a precision a shorter window may give
// (model.Config.Probe).
func (s *shop) simulated(k knobs) model.Config {
	c := s.apply(k)
	if k.none() {
		c.Range = s.rng
	} else {
		c.Probe = true
	}
	return c
}

// modePoint simulates c and returns its point.
func modePoint(c model.Config) (results.Point, error) {
	r, err := model.Run(c)
	if err != nil {
		return results.Point{}, err
	}
	return r.Point(c), nil
}

// machineName is a kind of machine for people.
func machineName(kind string) string {
	if kind == "espresso" {
		return "espresso machine"
	}
	return kind
}

func (s *shop) label(r string) string {
	if l, ok := loadLabel(r); ok {
		return l
	}
	switch {
	case r == "kitchen":
		return "the kitchen lock"
	case r == "channel:grinder" && s.mode.Family != "splitpipe":
		return "the order queue"
	case r == "channel:steamer" && s.mode.Family == "splitpipe":
		return "the milk's channel"
	case strings.HasPrefix(r, "channel:"):
		return "the channel into the " + machineName(strings.TrimPrefix(r, "channel:"))
	case strings.HasPrefix(r, "step:"):
		return "the " + strings.TrimPrefix(r, "step:") + " step"
	}
	if n := s.copies(r) * s.lines(); n > 1 {
		return fmt.Sprintf("the %d %ss", n, machineName(r))
	}
	return "the " + machineName(r)
}

// reliefs lists the experiments: each step the drink takes 10 % shorter,
// one more machine of each kind the mode holds, the kitchen lock held for
// less, twice the buffer into each pipeline stage, one more CPU (with the
// same customers, and with one more), twice the customers.
func (s *shop) reliefs() []relief {
	var rs []relief
	holds := s.mode.Family != "ideal" && s.mode.Family != "locking"
	steps := []struct {
		step, verb, kind string
		d                time.Duration
		used             bool
	}{
		{"grind", "grinding", "grinder", s.cfg.Grind, true},
		{"press", "pressing", "espresso", s.cfg.Press, true},
		{"steam", "steaming", "steamer", s.cfg.Steam, s.drink.Steams()},
		{"combine", "combining", "", s.cfg.Combine, s.drink.Combines()},
	}
	for _, st := range steps {
		if !st.used || st.d <= 0 || s.mode.Family == "noop" {
			continue
		}
		// The resource a step's relief is named by: what is held while
		// it runs, or, for work no lock or machine guards (the
		// customer's combining, all of ideal), the step itself.
		main := "step:" + st.step
		switch {
		case s.mode.Family == "locking" && (st.step != "combine" || !s.cfg.Split):
			main = "kitchen"
		case holds && st.kind != "":
			main = st.kind
		}
		rs = append(rs, relief{kind: Shorter, change: st.verb + " 10 % faster", named: []string{main}, relieves: appendNew([]string{main}, "cpus"),
			k: knobs{scale: map[string]float64{st.step: Faster}}})
	}
	if holds && s.mode.Family != "noop" {
		for _, st := range steps[:3] {
			if !st.used {
				continue
			}
			n, lines := s.copies(st.kind), s.lines()
			change := "another " + machineName(st.kind)
			if n > 1 {
				change = fmt.Sprintf("one more %s (%d → %d)", machineName(st.kind), n, n+1)
			}
			cost := Cost{Machines: lines}
			if lines > 1 {
				change = fmt.Sprintf("one more %s on each of the %d lines (%d → %d)", machineName(st.kind), lines, n*lines, (n+1)*lines)
			}
			if s.pipeline() {
				cost.Goroutines = lines
			}
			rs = append(rs, relief{kind: Copy, change: change, named: []string{st.kind}, relieves: []string{st.kind},
				cost: cost, k: knobs{copies: map[string]int{st.kind: 1}}})
		}
	}
	if s.mode.Family == "locking" && !s.cfg.Split && s.cfg.Combine > 0 {
		rs = append(rs, relief{kind: Split, change: "the kitchen lock held for less: combining outside it", named: []string{"kitchen"}, relieves: []string{"kitchen"},
			k: knobs{split: true}})
	}
	if s.pipeline() {
		for _, st := range steps[:3] {
			if !st.used {
				continue
			}
			ch := "channel:" + st.kind
			cur := s.buffer(st.kind)
			to := max(1, 2*cur)
			change := fmt.Sprintf("twice the buffer of %s (%d → %d)", s.label(ch), cur, to)
			if cur == 0 {
				change = fmt.Sprintf("a buffer of 1 in %s", s.label(ch))
			}
			chans := s.lines() // one channel into the stage a line, but one order queue for all
			if st.kind == "grinder" {
				chans = 1
			}
			slots := (to - cur) * chans
			rs = append(rs, relief{kind: Buffer, change: change, named: []string{ch}, relieves: []string{ch},
				cost: Cost{BufferSlots: slots, BufferBytes: slots * coffee.TicketBytes},
				k:    knobs{buffers: map[string]int{st.kind: to}}})
		}
	}
	return append(rs, loadReliefs(s.cfg.CPUs, s.customers(), s.who())...)
}

// describe says what the shop becomes with k's reliefs: "finelocking, 2
// grinders", "locking, combining outside the kitchen lock", "5 CPUs, 4
// customers".
func (s *shop) describe(k knobs) string {
	c := s.apply(k)
	parts := []string{s.mode.String()}
	if k.cpus > 0 || k.customers > 0 {
		n := c.Customers
		if n == 0 {
			n = c.CPUs
		}
		parts = append(parts, format.Count(c.CPUs, "CPU"), format.Count(n, s.who()))
	}
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"grind", c.Grind}, {"press", c.Press}, {"steam", c.Steam}, {"combine", c.Combine}} {
		if _, ok := k.scale[st.name]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", st.name, st.d))
		}
	}
	for _, kind := range []string{"grinder", "espresso", "steamer"} {
		if k.copies[kind] > 0 {
			what := format.Count(c.Copies.Kind(kind), machineName(kind))
			if s.lines() > 1 {
				what += " a line"
			}
			parts = append(parts, what)
		}
	}
	for _, kind := range []string{"grinder", "espresso", "steamer"} {
		if n := k.buffers[kind]; n > 0 {
			parts = append(parts, fmt.Sprintf("buffer %d into the %s", n, machineName(kind)))
		}
	}
	if k.split {
		parts = append(parts, "combining outside the kitchen lock")
	}
	return strings.Join(parts, ", ")
}
