package main

import (
	"fmt"
	"maps"
	"time"

	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
)

// loop is what each simulated goroutine does: between outside the lock,
// held inside it, writing a shared word of its own cache line inside it
// where word is set, under quirks; with hands the critical section
// counts the hands' changes as the probe's does, on the mutex's line: it
// reads the line at each operation and writes it at each change.
type loop struct {
	held, between time.Duration
	word, hands   bool
	quirks        sim.Quirks // an older runtime's
}

// simulate is probe's run in the model's engine under the go policy with
// the calibration's costs, on one socket of n cores: one goroutine alone,
// then per×n on n Ps, each running lp (8 ns outside the lock and 8 ns
// inside by default: 17 ns alone, as the empty critical section on the
// 16-vCPU machine), over dur after a warm-up.
func simulate(n, per int, dur time.Duration, cal calibrate.Calibration, lp loop) {
	var wakes, seen observed
	var moves int64
	var states [5]float64 // running, runnable, asleep, Ps looking for work, Ps idle
	run := func(procs, goroutines int) (ops, hands int, busy time.Duration, waited time.Duration) {
		s := sim.New(1)
		cpus := sim.NewGoCPUs(s, procs, cal.Costs)
		cpus.SetSteadyStart(true)
		cpus.SetQuirks(lp.quirks)
		cpus.SetMachine(sim.Machine{Sockets: 1, CoresPerSocket: max(n, 1), ThreadsPerCore: 1})
		mu := sim.NewMutex(s, "mu")
		var ob observed
		mu.Observe(ob.observe)
		shared := sim.NewLine(s)
		last := -1
		var wait time.Duration // the Locks', summed as each takes the mutex
		for i := range goroutines {
			s.Go(func(p *sim.Proc) {
				for {
					cpus.Burn(p, lp.between)
					asked := p.Now()
					mu.Lock(p)
					wait += p.Now() - asked
					if lp.hands {
						mu.Line().Read(p)
					}
					if last != i {
						if lp.hands {
							mu.Line().Write(p)
						}
						hands++
						last = i
					}
					if lp.word {
						shared.Write(p)
					}
					cpus.Burn(p, lp.held)
					mu.Unlock(p)
					ops++
				}
			})
		}
		warm := dur / 4
		s.RunUntil(warm)
		ops0, hands0, busy0, wait0, ob0, moves0 := ops, hands, cpus.Busy(), wait, ob.clone(), mu.Line().Moves()
		// The goroutines' and Ps' states, sampled a thousand times.
		states = [5]float64{}
		const samples = 1000
		for i := 1; i <= samples; i++ {
			s.RunUntil(warm + dur*time.Duration(i)/samples)
			running, runnable, looking := cpus.States()
			for j, v := range []int{running, runnable, mu.Sleeping(), looking, procs - running - looking} {
				states[j] += float64(v) / samples
			}
		}
		s.Stop()
		wakes = observed{woken: ob.woken - ob0.woken, onWakersP: ob.onWakersP - ob0.onWakersP, toRun: ob.toRun - ob0.toRun}
		moves = mu.Line().Moves() - moves0
		seen = observed{paths: map[string]int64{}}
		for k, n := range ob.paths {
			seen.paths[k] = n - ob0.paths[k]
		}
		return ops - ops0, hands - hands0, cpus.Busy() - busy0, wait - wait0
	}
	alone, _, _, _ := run(1, 1)
	ops, hands, busy, waited := run(n, n*per)
	one, all := float64(alone)/dur.Seconds(), float64(ops)/dur.Seconds()
	fmt.Printf("%2d Ps%s (model): one %.1f M/s; all %.1f M/s (%.2f×); hands changed every %.1f ops; waited %.0f ns an op; Ps idle %.0f %%\n",
		n, shape{per: per}, one/1e6, all/1e6, all/one, float64(ops)/float64(max(hands, 1)), float64(waited.Nanoseconds())/float64(max(ops, 1)),
		100*(1-busy.Seconds()/(dur.Seconds()*float64(n))))
	taken := seen.paths
	paths{fast: taken["fast"], spins: taken["spin"], took: taken["took"], slept: taken["slept"], sleptSpun: taken["slept-spun"], tookWoken: taken["took-woken"],
		handed: taken["handed"], wakes: taken["wake"], handoffs: taken["handoff"], swapsLost: taken["swap-lost"], unlockSlow: -1}.print(int64(ops))
	fmt.Printf("   its word moved %.2f times an operation\n", float64(moves)/float64(max(ops, 1)))
	fmt.Printf("   goroutines on average: %.1f running, %.1f runnable, %.1f asleep on the mutex; Ps %.1f looking for work, %.1f idle\n",
		states[0], states[1], states[2], states[3], states[4])
	fmt.Printf("   a 1000 ops: %.1f woken to find the count taken, asleep again\n", 1000*float64(taken["slept-again"])/float64(max(ops, 1)))
	if wakes.woken > 0 {
		fmt.Printf("   woken %.0f a second, %.0f %% on the waker's P, a mean %v from wake to running\n",
			float64(wakes.woken)/dur.Seconds(), 100*float64(wakes.onWakersP)/float64(wakes.woken),
			(wakes.toRun / time.Duration(wakes.woken)).Round(10*time.Nanosecond))
	}
}

// observed is what a mutex's Observe told: the paths its Locks and
// Unlocks took, and how the goroutines an Unlock woke came back: how many
// ran, how many on the P whose goroutine woke them (from its runnext,
// once that goroutine blocked), and their time from the wake to running.
type observed struct {
	paths            map[string]int64
	woken, onWakersP int64
	toRun            time.Duration
	// The waiter an Unlock woke last, not yet running, when and by which P.
	woke   *sim.Proc
	wokeAt time.Duration
	wokeBy int
}

func (o *observed) observe(path string, p, by *sim.Proc) {
	if o.paths == nil {
		o.paths = map[string]int64{}
	}
	o.paths[path]++
	switch {
	case path == "woke" && by.CPU() >= 0:
		o.woke, o.wokeAt, o.wokeBy = p, p.Now(), by.CPU()
	case path == "back" && o.woke == p:
		o.woken++
		o.toRun += p.Now() - o.wokeAt
		if p.CPU() == o.wokeBy {
			o.onWakersP++
		}
		o.woke = nil
	}
}

// clone is o now, to count from.
func (o *observed) clone() observed {
	c := *o
	c.paths = maps.Clone(o.paths)
	return c
}
