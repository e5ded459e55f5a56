package main

import (
	"fmt"
	"strings"
)

// paths counts a goroutine's trips through the replica.
type paths struct {
	fast                        int64 // Locks whose first compare-and-swap took the mutex
	spins                       int64 // spins (30 pauses each) in Lock
	took                        int64 // Locks that took it in lockSlow before sleeping
	swapsLost                   int64 // compare-and-swaps in lockSlow that found the word changed (the model's: those to take a mutex seen free)
	slept                       int64 // sleeps on the semaphore
	sleptSpun                   int64 // of them, after spinning the most a Lock spins
	tookWoken                   int64 // Locks that took it after a sleep, in normal mode
	handed                      int64 // Locks handed it in starvation mode
	unlockSlow, wakes, handoffs int64
}

func (p *paths) add(q paths) {
	p.fast += q.fast
	p.spins += q.spins
	p.took += q.took
	p.swapsLost += q.swapsLost
	p.slept += q.slept
	p.sleptSpun += q.sleptSpun
	p.tookWoken += q.tookWoken
	p.handed += q.handed
	p.unlockSlow += q.unlockSlow
	p.wakes += q.wakes
	p.handoffs += q.handoffs
}

// print writes the paths taken a thousand operations, ops in all; a
// count below zero is one the counter does not keep, left out.
func (p paths) print(ops int64) {
	line := "   a 1000 ops:"
	for _, f := range []struct {
		v    int64
		what string
	}{
		{p.fast, "fast"}, {p.spins, "spins"}, {p.took, "took in lockSlow"}, {p.swapsLost, "swaps lost"},
		{p.slept, "slept"}, {p.sleptSpun, "of them after 4 spins"}, {p.tookWoken, "took woken"}, {p.handed, "handed"}, {p.unlockSlow, "unlocks slow"},
		{p.wakes, "waking"}, {p.handoffs, "handing over"},
	} {
		if f.v >= 0 {
			line += fmt.Sprintf(" %.1f %s,", 1000*float64(f.v)/float64(max(ops, 1)), f.what)
		}
	}
	fmt.Println(strings.TrimSuffix(line, ","))
}
