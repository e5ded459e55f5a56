//go:build linux

// Command wakeprobe is a one-off probe of the Go runtime, not a check that
// is run again: it shows how long a goroutine readied by a send takes to
// run on the other P, after that P has been idle for a while, timed two
// ways: from a receiver just started with a go statement (the way brewput
// calibrate timed it before 2026-11-22), and from a receiver that has
// reached its receive before the idle time begins. Below the time a new
// goroutine takes to start on the idle P, the first way's send finds no
// receiver yet, blocks, and hands over on its own P in about a microsecond:
// a "spinning wake-up" that woke nothing. It also times what a 3 µs
// nanosleep lasts, the runtime's usleep(3) before it steals another P's
// runnext goroutine, which the OS's timer slack stretches.
//
//	go run ./wakeprobe
package main

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"syscall"
	"time"
)

func spin(d time.Duration) {
	for s := time.Now(); time.Since(s) < d; {
	}
}

func main() {
	runtime.GOMAXPROCS(2)
	const n = 101
	for _, idle := range []time.Duration{0, 5e3, 20e3, 40e3, 60e3, 80e3, 100e3, 150e3, 300e3, 500e3} {
		var fromGo, fromParked []time.Duration
		for range n {
			ch := make(chan time.Time)
			got := make(chan time.Duration)
			go func() { s := <-ch; got <- time.Since(s) }()
			spin(idle)
			ch <- time.Now()
			spin(time.Millisecond)
			fromGo = append(fromGo, <-got)

			var blocking atomic.Bool
			go func() { blocking.Store(true); s := <-ch; got <- time.Since(s) }()
			for !blocking.Load() {
			}
			spin(idle)
			ch <- time.Now()
			spin(time.Millisecond)
			fromParked = append(fromParked, <-got)
		}
		slices.Sort(fromGo)
		slices.Sort(fromParked)
		fmt.Printf("idle %6v: from the go statement p50 %8v; from a parked receiver p50 %8v (p10 %v, p90 %v)\n",
			idle, fromGo[n/2].Round(100), fromParked[n/2].Round(100), fromParked[n/10].Round(100), fromParked[n*9/10].Round(100))
	}
	var sleeps []time.Duration
	for range n {
		ts := syscall.NsecToTimespec(3000)
		start := time.Now()
		_ = syscall.Nanosleep(&ts, nil)
		sleeps = append(sleeps, time.Since(start))
	}
	slices.Sort(sleeps)
	fmt.Printf("a 3µs nanosleep lasts: p50 %v (p10 %v, p90 %v)\n", sleeps[n/2].Round(100), sleeps[n/10].Round(100), sleeps[n*9/10].Round(100))
}
