// Command mutexprobe is a one-off probe of sync.Mutex on this machine, not
// a check that is run again: for each count n of -procs, n goroutines on n
// Ps take and release one mutex around an empty critical section for -dur
// (after one alone). It prints their throughput against the one alone's,
// how often the lock changed hands (an acquisition by another goroutine
// than the last), how long goroutines waited asleep on it (the runtime's
// /sync/mutex/wait/total:seconds) and how much of the Ps' time was idle
// (/cpu/classes/idle:cpu-seconds): where a contended mutex's time goes,
// which docs/model.md quotes against the model's. With -model FILE it
// runs the same in the model's engine instead, under that calibration's
// costs (its "waited" is the time goroutines waited for the lock, asleep
// or spinning), and says how the goroutines its Unlocks woke came back,
// as tracestates -wakes says it of a trace of the real one.
//
//	go run ./mutexprobe [-procs 2] [-runs 3] [-dur 2s] [-model CALIBRATION]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/trace"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brewput/brewput/model/calibrate"
)

func main() {
	runs := flag.Int("runs", 3, "how many times to probe each count")
	procs := flag.String("procs", "2", "goroutine and P counts, comma-separated")
	dur := flag.Duration("dur", 2*time.Second, "how long each probe runs")
	modelCal := flag.String("model", "", "simulate under this calibration file instead of measuring")
	traceDir := flag.String("trace", "", "write an execution trace of each count's first run, its n goroutines, to this folder")
	flag.Parse()
	var counts []int
	for _, f := range strings.Split(*procs, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "mutexprobe: -procs: %q is not a count of 1 or more\n", f)
			os.Exit(2)
		}
		counts = append(counts, n)
	}
	if *modelCal != "" {
		cal, err := calibrate.Load(*modelCal)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutexprobe: -model: %v\n", err)
			os.Exit(2)
		}
		for _, n := range counts {
			simulate(n, *dur, cal) // seeded: one run says it
		}
		return
	}
	for _, n := range counts {
		for r := range *runs {
			var tr string
			if *traceDir != "" && r == 0 {
				tr = filepath.Join(*traceDir, fmt.Sprintf("mutex-%dp.trace", n))
			}
			probe(n, *dur, tr)
		}
	}
}

// reading is the runtime's totals that the probe reports the change of.
type reading struct{ asleep, idle, total float64 }

func read() reading {
	runtime.GC() // the CPU classes are brought up to date at each GC
	s := []metrics.Sample{
		{Name: "/sync/mutex/wait/total:seconds"},
		{Name: "/cpu/classes/idle:cpu-seconds"},
		{Name: "/cpu/classes/total:cpu-seconds"},
	}
	metrics.Read(s)
	return reading{s[0].Value.Float64(), s[1].Value.Float64(), s[2].Value.Float64()}
}

// probe runs one goroutine alone, then n on n Ps, and prints what it saw;
// where tracePath is not "", it writes an execution trace of the n there.
func probe(n int, dur time.Duration, tracePath string) {
	runtime.GOMAXPROCS(n)
	var mu sync.Mutex
	var alone int64
	start := time.Now()
	for time.Since(start) < dur/2 {
		for range 1000 {
			mu.Lock()
			mu.Unlock()
			alone++
		}
	}
	one := float64(alone) / time.Since(start).Seconds()

	var last, handovers int64 // under mu
	ops := make([]int64, n)
	var stop atomic.Bool
	var wg sync.WaitGroup
	before := read()
	if tracePath != "" {
		f, err := os.Create(tracePath)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutexprobe: -trace: %v\n", err)
			os.Exit(1)
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			fmt.Fprintf(os.Stderr, "mutexprobe: -trace: %v\n", err)
			os.Exit(1)
		}
		defer trace.Stop()
	}
	start = time.Now()
	for i := range ops {
		wg.Go(func() {
			id, k := int64(i+1), int64(0)
			for !stop.Load() {
				for range 1000 {
					mu.Lock()
					if last != id {
						handovers++
						last = id
					}
					mu.Unlock()
					k++
				}
			}
			ops[i] = k
		})
	}
	time.Sleep(dur)
	stop.Store(true)
	wg.Wait()
	took := time.Since(start).Seconds()
	after := read()
	var total int64
	for _, k := range ops {
		total += k
	}
	all := float64(total) / took
	idle := (after.idle - before.idle) / max(after.total-before.total, 1e-9)
	fmt.Printf("%2d Ps: one %.1f M/s; all %.1f M/s (%.2f×); hands changed every %.1f ops; asleep %.0f ns an op; Ps idle %.0f %%\n",
		n, one/1e6, all/1e6, all/one, float64(total)/float64(max(handovers, 1)),
		1e9*(after.asleep-before.asleep)/float64(max(total, 1)), 100*idle)
}
