package model

import (
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// steps mirrors coffee.Steps: the steps' durations, each machine step
// jittered from the simulation's seeded source, each burned on the shop's
// virtual CPUs (the model's burn.Clock).
type steps struct {
	grindD, pressD, steamD, combineD, jitter time.Duration

	sim  *sim.Sim
	cpus clock
}

func newSteps(c Config, s *sim.Sim, cpus clock) steps {
	return steps{
		grindD: c.Grind, pressD: c.Press, steamD: c.Steam, combineD: c.Combine, jitter: c.Jitter,
		sim: s, cpus: cpus,
	}
}

// machine returns one machine step's duration, jittered as coffee's
// Steps.machine does.
func (s steps) machine(d time.Duration) time.Duration {
	if s.jitter <= 0 {
		return d
	}
	d += time.Duration(s.sim.Rand().Int64N(int64(s.jitter)+1)) - s.jitter/2
	return max(d, 0)
}

// combine is the last step of a latte or an americano, done by the customer
// with no machine: a burn with no note (see clock.note).
func (s steps) combine(p *sim.Proc) { s.cpus.Burn(p, s.combineD) }

// The three machine steps, each jittered.
func (s steps) grind() time.Duration { return s.machine(s.grindD) }
func (s steps) press() time.Duration { return s.machine(s.pressD) }
func (s steps) steam() time.Duration { return s.machine(s.steamD) }

// The steps' mean durations in seconds, for the bounds: what the steps
// above take on average.
func (s steps) meanGrind() float64   { return s.mean(s.grindD) }
func (s steps) meanPress() float64   { return s.mean(s.pressD) }
func (s steps) meanSteam() float64   { return s.mean(s.steamD) }
func (s steps) meanCombine() float64 { return s.combineD.Seconds() }

// mean returns the mean of machine(d) in seconds, exactly: machine draws
// d - jitter/2 + k for k uniform in 0..jitter and counts a negative draw as
// zero, so jitter wider than twice the step lengthens it on average.
func (s steps) mean(d time.Duration) float64 {
	if s.jitter <= 0 {
		return d.Seconds()
	}
	n := float64(s.jitter) + 1    // equally likely draws
	lo := float64(d - s.jitter/2) // the shortest, maybe negative
	hi := lo + float64(s.jitter)  // the longest
	if lo >= 0 {
		return (lo + hi) / 2 / 1e9
	}
	if hi <= 0 {
		return 0
	}
	return hi * (hi + 1) / 2 / n / 1e9 // the positive draws are 1, 2, …, hi
}

// drink is coffee's Drink itself: the model makes the same drinks, with
// the same steps.
type drink = coffee.Drink

const (
	latte     = coffee.Latte
	americano = coffee.Americano
	espresso  = coffee.Espresso
)
