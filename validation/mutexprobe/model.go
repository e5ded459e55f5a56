package main

import (
	"fmt"
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
	var wakes sim.WakeStats
	var seen sim.MutexPaths
	var moves int64
	var states [5]float64 // running, runnable, asleep, Ps looking for work, Ps idle
	run := func(procs, goroutines int) (ops, hands int, busy time.Duration, waited time.Duration) {
		s := sim.New(1)
		cpus := sim.NewGoCPUs(s, procs, cal.Costs)
		cpus.SetSteadyStart(true)
		cpus.SetQuirks(lp.quirks)
		cpus.SetMachine(sim.Machine{Sockets: 1, CoresPerSocket: max(n, 1), ThreadsPerCore: 1})
		mu := sim.NewMutex(s, "mu")
		shared := sim.NewLine(s)
		last := -1
		for i := range goroutines {
			s.Go(func(p *sim.Proc) {
				for {
					cpus.Burn(p, lp.between)
					mu.Lock(p)
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
		ops0, hands0, busy0, read0, wakes0, paths0, moves0 := ops, hands, cpus.Busy(), mu.Read(), mu.Wakes(), mu.Paths(), mu.LineMoves()
		// The goroutines' and Ps' states, sampled a thousand times.
		states = [5]float64{}
		const samples = 1000
		for i := 1; i <= samples; i++ {
			s.RunUntil(warm + dur*time.Duration(i)/samples)
			for j, v := range []int{cpus.Running(), cpus.Runnable(), mu.Sleeping(), cpus.Looking(), procs - cpus.Running() - cpus.Looking()} {
				states[j] += float64(v) / samples
			}
		}
		s.Stop()
		w := mu.Wakes()
		wakes = sim.WakeStats{Woken: w.Woken - wakes0.Woken, OnWakersP: w.OnWakersP - wakes0.OnWakersP, ToRun: w.ToRun - wakes0.ToRun}
		moves = mu.LineMoves() - moves0
		seen = mu.Paths().Sub(paths0)
		return ops - ops0, hands - hands0, cpus.Busy() - busy0, mu.Read().Sub(read0).Wait
	}
	alone, _, _, _ := run(1, 1)
	ops, hands, busy, waited := run(n, n*per)
	one, all := float64(alone)/dur.Seconds(), float64(ops)/dur.Seconds()
	fmt.Printf("%2d Ps%s (model): one %.1f M/s; all %.1f M/s (%.2f×); hands changed every %.1f ops; waited %.0f ns an op; Ps idle %.0f %%\n",
		n, shape{per: per}, one/1e6, all/1e6, all/one, float64(ops)/float64(max(hands, 1)), float64(waited.Nanoseconds())/float64(max(ops, 1)),
		100*(1-busy.Seconds()/(dur.Seconds()*float64(n))))
	paths{fast: seen.Fast, spins: seen.Spins, took: seen.Took, slept: seen.Slept, sleptSpun: seen.SleptSpun, tookWoken: seen.TookWoken,
		handed: seen.Handed, wakes: seen.Wakes, handoffs: seen.Handoffs, swapsLost: seen.SwapsLost, unlockSlow: -1}.print(int64(ops))
	fmt.Printf("   its word moved %.2f times an operation\n", float64(moves)/float64(max(ops, 1)))
	fmt.Printf("   goroutines on average: %.1f running, %.1f runnable, %.1f asleep on the mutex; Ps %.1f looking for work, %.1f idle\n",
		states[0], states[1], states[2], states[3], states[4])
	fmt.Printf("   a 1000 ops: %.1f woken to find the count taken, asleep again\n", 1000*float64(seen.SleptAgain)/float64(max(ops, 1)))
	if wakes.Woken > 0 {
		fmt.Printf("   woken %.0f a second, %.0f %% on the waker's P, a mean %v from wake to running\n",
			float64(wakes.Woken)/dur.Seconds(), 100*float64(wakes.OnWakersP)/float64(wakes.Woken),
			(wakes.ToRun / time.Duration(wakes.Woken)).Round(10*time.Nanosecond))
	}
}
