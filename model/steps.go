package model

import (
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// steps mirrors coffee.Steps on the virtual CPUs, seeded jitter.
type steps struct {
	coffee.Steps
	sim  *sim.Sim
	cpus clock
}

// machine returns a machine step's duration, jittered as coffee's.
func (s steps) machine(d time.Duration) time.Duration {
	if s.Jitter <= 0 {
		return d
	}
	d += time.Duration(s.sim.Rand().Int64N(int64(s.Jitter)+1)) - s.Jitter/2
	return max(d, 0)
}

// combine is the customer's last step, on no machine (no note).
func (s steps) combine(p *sim.Proc) { s.cpus.Burn(p, s.Combine) }

// The three machine steps, each jittered.
func (s steps) grind() time.Duration { return s.machine(s.Grind) }
func (s steps) press() time.Duration { return s.machine(s.Press) }
func (s steps) steam() time.Duration { return s.machine(s.Steam) }

// The steps' mean durations in seconds, for the bounds.
func (s steps) meanGrind() float64   { return s.mean(s.Grind) }
func (s steps) meanPress() float64   { return s.mean(s.Press) }
func (s steps) meanSteam() float64   { return s.mean(s.Steam) }
func (s steps) meanCombine() float64 { return s.Combine.Seconds() }

// work is drink d's steps' mean time one after the other.
func (s steps) work(d drink) float64 {
	w := s.meanGrind() + s.meanPress()
	if d.Steams() {
		w += s.meanSteam()
	}
	if d.Combines() {
		w += s.meanCombine()
	}
	return w
}

// forked is a latte's least time with the milk steamed beside grinding and
// pressing: the longer branch, then combining.
func (s steps) forked() float64 {
	return max(s.meanGrind()+s.meanPress(), s.meanSteam()) + s.meanCombine()
}

// mean is machine(d)'s exact mean in seconds: a negative draw counts as
// zero, so jitter wider than twice the step lengthens it on average.
func (s steps) mean(d time.Duration) float64 {
	if s.Jitter <= 0 {
		return d.Seconds()
	}
	n := float64(s.Jitter) + 1    // equally likely draws
	lo := float64(d - s.Jitter/2) // the shortest, maybe negative
	hi := lo + float64(s.Jitter)  // the longest
	if lo >= 0 {
		return (lo + hi) / 2 / 1e9
	}
	if hi <= 0 {
		return 0
	}
	return hi * (hi + 1) / 2 / n / 1e9 // the positive draws are 1, 2, …, hi
}

// drink is coffee's Drink: the model makes the same drinks.
type drink = coffee.Drink

const (
	latte     = coffee.Latte
	americano = coffee.Americano
	espresso  = coffee.Espresso
)
