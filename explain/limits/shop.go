package limits

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
)

// shop is a configuration of the coffee shop; rng is its band's. Its
// reliefs come from what its family declares it holds.
type shop struct {
	setting
	rng    *model.Range
	mode   coffee.Mode
	family coffee.Family
}

func (s *shop) system() string {
	return fmt.Sprintf("%s on %s", s.mode, format.Count(s.cfg.CPUs, "CPU"))
}

// customers is the configuration's customers (servers), counted out.
func (s *shop) customers() int { return s.cfg.Resolve().Par }

// copies is how many machines of kind there are (a line).
func (s *shop) copies(kind string) int {
	return max(s.cfg.Variant.Copies.Kind(kind), s.mode.Copies())
}

// buffer is the room in the channel into kind's stage.
func (s *shop) buffer(kind string) int {
	if n := s.cfg.Variant.Buffers.Kind(kind); n > 0 {
		return n
	}
	return s.mode.Buffer()
}

// apply is the configuration with k's reliefs.
func (s *shop) apply(k knobs) model.Config {
	c := s.load(k)
	scale := func(d time.Duration, step string) time.Duration {
		if f, ok := k.scale[step]; ok {
			return time.Duration(float64(d) * f)
		}
		return d
	}
	st := &c.Steps
	st.Grind, st.Press, st.Steam, st.Combine = scale(st.Grind, "grind"), scale(st.Press, "press"), scale(st.Steam, "steam"), scale(st.Combine, "combine")
	for kind, n := range k.copies {
		c.Variant.Copies = c.Variant.Copies.With(kind, s.copies(kind)+n)
	}
	for kind, n := range k.buffers {
		c.Variant.Buffers = c.Variant.Buffers.With(kind, n)
	}
	c.Variant.Split = c.Variant.Split || k.split
	return c
}

func (s *shop) config(k knobs) (model.Config, bool) { return s.apply(k), true }

// simulated is apply(k): with its Range as it is, else a probe.
func (s *shop) simulated(k knobs) model.Config {
	c := s.apply(k)
	if k.none() {
		c.Range = s.rng
	} else {
		c.Probe = true
	}
	return c
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
	// A forked pipeline's customer hands the milk to the steamer's own
	// channel; a straight one's order queue is the grinder's.
	forked := s.family.Shape.Forked
	switch {
	case r == "kitchen":
		return "the kitchen lock"
	case r == "channel:grinder" && !forked:
		return "the order queue"
	case r == "channel:steamer" && forked:
		return "the milk's channel"
	case strings.HasPrefix(r, "channel:"):
		return "the channel into the " + machineName(strings.TrimPrefix(r, "channel:"))
	case strings.HasPrefix(r, "step:"):
		return "the " + strings.TrimPrefix(r, "step:") + " step"
	}
	if n := s.copies(r) * s.mode.Lines(); n > 1 {
		return fmt.Sprintf("the %d %ss", n, machineName(r))
	}
	return "the " + machineName(r)
}

// reliefs lists the experiments: steps, machines, the lock, buffers, load.
func (s *shop) reliefs() []relief {
	var rs []relief
	drink, v := s.family.Drink, s.cfg.Variant
	steps := []struct {
		step, verb, kind string
		d                time.Duration
		used             bool
	}{
		{"grind", "grinding", "grinder", s.cfg.Steps.Grind, true},
		{"press", "pressing", "espresso", s.cfg.Steps.Press, true},
		{"steam", "steaming", "steamer", s.cfg.Steps.Steam, drink.Steams()},
		{"combine", "combining", "", s.cfg.Steps.Combine, drink.Combines()},
	}
	for _, st := range steps {
		if !st.used || st.d <= 0 || s.family.Shape.Holds == coffee.NoShop {
			continue
		}
		// A step's relief is named by what is held while it runs, or by
		// the step where nothing is (combining, all of ideal).
		main := cmp.Or(s.mode.Holder(st.step, v), "step:"+st.step)
		rs = append(rs, relief{kind: Shorter, change: st.verb + " 10 % faster", named: []string{main}, relieves: collect.AppendNew([]string{main}, "cpus"),
			k: knobs{scale: map[string]float64{st.step: Faster}}})
	}
	for _, st := range steps[:3] {
		if !st.used || s.mode.Holder(st.step, v) != st.kind {
			continue // no machine of its own to copy
		}
		n, lines := s.copies(st.kind), s.mode.Lines()
		change := "another " + machineName(st.kind)
		if n > 1 {
			change = fmt.Sprintf("one more %s (%d → %d)", machineName(st.kind), n, n+1)
		}
		cost := Cost{Machines: lines}
		if lines > 1 {
			change = fmt.Sprintf("one more %s on each of the %d lines (%d → %d)", machineName(st.kind), lines, n*lines, (n+1)*lines)
		}
		if s.family.Pipeline() {
			cost.Goroutines = lines
		}
		rs = append(rs, relief{kind: Copy, change: change, named: []string{st.kind}, relieves: []string{st.kind},
			cost: cost, k: knobs{copies: map[string]int{st.kind: 1}}})
	}
	if lock := s.mode.Holder("combine", v); lock != "" && drink.Combines() && s.cfg.Steps.Combine > 0 {
		rs = append(rs, relief{kind: Split, change: s.label(lock) + " held for less: combining outside it", named: []string{lock}, relieves: []string{lock},
			k: knobs{split: true}})
	}
	if s.family.Pipeline() {
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
			chans := s.mode.Lines() // one channel into the stage a line, but one order queue for all
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

// describe says what k makes of the shop: "finelocking, 2 grinders".
func (s *shop) describe(k knobs) string {
	c := s.apply(k)
	parts := []string{s.mode.String()}
	if k.cpus > 0 || k.customers > 0 {
		parts = append(parts, format.Count(c.CPUs, "CPU"), format.Count(c.Resolve().Par, s.who()))
	}
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"grind", c.Steps.Grind}, {"press", c.Steps.Press}, {"steam", c.Steps.Steam}, {"combine", c.Steps.Combine}} {
		if _, ok := k.scale[st.name]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", st.name, st.d))
		}
	}
	for _, kind := range []string{"grinder", "espresso", "steamer"} {
		if k.copies[kind] > 0 {
			what := format.Count(c.Variant.Copies.Kind(kind), machineName(kind))
			if s.mode.Lines() > 1 {
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
