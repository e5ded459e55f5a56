// Command mutexprobe is a one-off probe of sync.Mutex on this machine, not
// a check that is run again: for each count n of -procs, n goroutines on n
// Ps (-per n a P) take and release one mutex for -dur (after one alone),
// around -in iterations of the published benchmarks' work (none: an empty
// critical section) with -out outside it. It prints their throughput
// against the one alone's, how often the lock changed hands (an
// acquisition by another goroutine than the last: counted under the lock
// in variables that the allocator puts on the mutex's cache line beside
// it, as -in's work writes its result there), how long goroutines
// waited asleep on it (the runtime's /sync/mutex/wait/total:seconds) and
// how much of the Ps' time was idle (/cpu/classes/idle:cpu-seconds): where
// a contended mutex's time goes, which docs/model.md quotes against the
// model's. With -replica it takes a replica of sync.Mutex's algorithm
// instead (replica.go, built with -tags replica
// -ldflags=-checklinkname=0), which also prints the paths its Locks and
// Unlocks took. With -model FILE it runs the same in the model's engine,
// each critical section -held long and -between apart (writing a shared
// word of its own line with -word), under that calibration's costs (its
// "waited" is the time goroutines waited for the lock, asleep or
// spinning), and says which paths its
// mutex took, how the goroutines its Unlocks woke came back and how many
// goroutines ran, waited for a P and slept on average, as tracestates
// -wakes says it of a trace of the real one.
//
//	go run ./mutexprobe [-procs 2] [-per 1] [-in 0] [-out 0] [-runs 3] [-dur 2s] [-hands=false]
//	go run ./mutexprobe -model CALIBRATION [-procs 2] [-per 1] [-held 8ns] [-between 8ns] [-word] [-runtime go1.0] [-dur 2s] [-hands=false]
//	go build -tags replica -ldflags=-checklinkname=0 ./mutexprobe && ./mutexprobe -replica -procs 4
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
	"github.com/brewput/brewput/validation/internal/runtimes"
)

func main() {
	runs := flag.Int("runs", 3, "how many times to probe each count")
	procs := flag.String("procs", "2", "goroutine and P counts, comma-separated")
	dur := flag.Duration("dur", 2*time.Second, "how long each probe runs")
	modelCal := flag.String("model", "", "simulate under this calibration file instead of measuring")
	per := flag.Int("per", 1, "goroutines a P")
	in := flag.Int("in", 0, "iterations of work inside the critical section")
	out := flag.Int("out", 0, "iterations of work outside it")
	useReplica := flag.Bool("replica", false, "take a replica of sync.Mutex's algorithm that counts its paths "+
		"(built with -tags replica -ldflags=-checklinkname=0)")
	traceDir := flag.String("trace", "", "write an execution trace of each count's first run, its n goroutines, to this folder")
	held := flag.Duration("held", 8*time.Nanosecond, "with -model: the time the critical section takes")
	between := flag.Duration("between", 8*time.Nanosecond, "with -model: the time between the critical sections")
	rt := flag.String("runtime", "", "with -model: the runtime simulated (go1.0, go1.9, go1.23; today's by default)")
	word := flag.Bool("word", false, "with -model: the critical section writes a shared word on a cache line of its own, "+
		"as validation/manycore's BenchmarkMutexShortHold does")
	hands := flag.Bool("hands", true, "count how often the lock changes hands: a read under it at each operation and a write "+
		"at each change, of variables on the mutex's own cache line (false: the critical section the benchmarks have, and no count)")
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
	if *per < 1 || *in < 0 || *out < 0 {
		fmt.Fprintln(os.Stderr, "mutexprobe: -per is 1 or more, -in and -out 0 or more")
		os.Exit(2)
	}
	if *modelCal == "" {
		flag.Visit(func(f *flag.Flag) {
			if f.Name == "held" || f.Name == "between" || f.Name == "word" || f.Name == "runtime" {
				fmt.Fprintf(os.Stderr, "mutexprobe: -%s is the model's loop, with -model (a measured loop takes -in and -out)\n", f.Name)
				os.Exit(2)
			}
		})
	}
	if *useReplica && !haveReplica {
		fmt.Fprintln(os.Stderr, "mutexprobe: -replica: build with -tags replica -ldflags=-checklinkname=0")
		os.Exit(2)
	}
	if *modelCal != "" {
		if *in != 0 || *out != 0 {
			fmt.Fprintln(os.Stderr, "mutexprobe: -in and -out are measured only, not with -model (-held and -between are its times)")
			os.Exit(2)
		}
		quirks, err := runtimes.Quirks(*rt)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutexprobe: -runtime: %q is not one the model knows (go1.0, go1.9, go1.23, or none: today's)\n", *rt)
			os.Exit(2)
		}
		if *held < 0 || *between < 0 {
			fmt.Fprintln(os.Stderr, "mutexprobe: -held and -between are durations of 0 or more")
			os.Exit(2)
		}
		cal, err := calibrate.Load(*modelCal)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutexprobe: -model: %v\n", err)
			os.Exit(2)
		}
		for _, n := range counts {
			simulate(n, *per, *dur, cal, loop{held: *held, between: *between, word: *word, hands: *hands, quirks: quirks}) // seeded: one run says it
		}
		return
	}
	for _, n := range counts {
		for r := range *runs {
			var tr string
			if *traceDir != "" && r == 0 {
				tr = filepath.Join(*traceDir, fmt.Sprintf("mutex-%dp.trace", n))
			}
			probe(n, shape{*per, *in, *out}, *dur, tr, *useReplica, *hands)
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

// shape is what each goroutine does: per goroutines a P, each taking the
// lock around in iterations of work and doing out iterations outside it.
type shape struct{ per, in, out int }

// work is the published benchmarks' local work: iterations of
// foo *= 2; foo /= 2 on a value the compiler cannot see through.
//
//go:noinline
func work(foo, iterations int) int {
	for range iterations {
		foo *= 2
		foo /= 2
	}
	return foo
}

var sink atomic.Int64

// probe runs one goroutine alone, then sh.per×n on n Ps, and prints what
// it saw; where tracePath is not "", it writes an execution trace of them
// there.
func probe(n int, sh shape, dur time.Duration, tracePath string, useReplica, countHands bool) {
	runtime.GOMAXPROCS(n)
	var mu sync.Mutex
	var rep *replica // the replica in mu's place, where not nil
	if useReplica {
		rep = new(replica)
	}
	var seen paths // the replica's paths, alone
	var alone int64
	foo, shared := 1, 0 // shared under mu
	start := time.Now()
	for time.Since(start) < dur/2 {
		for range 1000 {
			if rep != nil {
				rep.Lock(&seen)
			} else {
				mu.Lock()
			}
			if sh.in > 0 {
				shared = work(shared+1, sh.in)
			}
			if rep != nil {
				rep.Unlock(&seen)
			} else {
				mu.Unlock()
			}
			if sh.out > 0 {
				foo = work(foo, sh.out)
			}
			alone++
		}
	}
	one := float64(alone) / time.Since(start).Seconds()

	var last, handovers int64 // under mu
	ops := make([]int64, n*sh.per)
	took := make([]paths, n*sh.per)
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
			id, k, foo := int64(i+1), int64(0), i+1
			var c paths
			for !stop.Load() {
				for range 1000 {
					if rep != nil {
						rep.Lock(&c)
					} else {
						mu.Lock()
					}
					if countHands && last != id {
						handovers++
						last = id
					}
					if sh.in > 0 {
						shared = work(shared+1, sh.in)
					}
					if rep != nil {
						rep.Unlock(&c)
					} else {
						mu.Unlock()
					}
					if sh.out > 0 {
						foo = work(foo, sh.out)
					}
					k++
				}
			}
			ops[i] = k
			took[i] = c
			sink.Add(int64(foo))
		})
	}
	time.Sleep(dur)
	stop.Store(true)
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	after := read()
	var total int64
	var all paths
	for i, k := range ops {
		total += k
		all.add(took[i])
	}
	rate := float64(total) / elapsed
	idle := (after.idle - before.idle) / max(after.total-before.total, 1e-9)
	sink.Add(int64(foo + shared))
	if rep != nil {
		defer all.print(total)
	}
	every := "-"
	if countHands {
		every = fmt.Sprintf("%.1f", float64(total)/float64(max(handovers, 1)))
	}
	fmt.Printf("%2d Ps%s: one %.1f M/s; all %.1f M/s (%.2f×); hands changed every %s ops; asleep %.0f ns an op; Ps idle %.0f %%\n",
		n, sh, one/1e6, rate/1e6, rate/one, every,
		1e9*(after.asleep-before.asleep)/float64(max(total, 1)), 100*idle)
}

// String is the shape as the probe's lines name it: nothing for one
// goroutine a P around an empty critical section.
func (sh shape) String() string {
	var s string
	if sh.per != 1 {
		s += fmt.Sprintf(", %d a P", sh.per)
	}
	if sh.in != 0 || sh.out != 0 {
		s += fmt.Sprintf(", work %d in %d out", sh.in, sh.out)
	}
	return s
}
