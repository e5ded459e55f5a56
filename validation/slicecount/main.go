// Command slicecount is a one-off probe of the Go scheduler, not a check
// that is run again: it shows how many wall-clock steps a goroutine ends in
// each of its time slices when goroutines outnumber CPUs: n goroutines burn
// steps of -step back to back on -procs Ps for 3 s, each recording when
// every step ends, and a gap of more than three steps between two ends
// marks a slice boundary. It prints the count of slices by steps ended,
// and how long the first to the last step end of a slice took. With 1 ms
// steps a 20.1 ms slice (two sysmon ticks) ends 21 steps when twenty full
// steps and their overhead fit in it, 20 otherwise: the knife edge the
// repository README's "Steps that end on the clock" describes. -syscalls adds the two
// thread-clock system calls each harness step makes.
//
//	go run ./slicecount -procs 1 -n 10 -step 1ms
//	go run ./slicecount -procs 1 -n 10 -step 1ms -syscalls
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/brewput/brewput/measure/burn"
)

func main() {
	procs := flag.Int("procs", 1, "GOMAXPROCS")
	n := flag.Int("n", 10, "goroutines burning steps")
	step := flag.Duration("step", time.Millisecond, "length of a step")
	syscalls := flag.Bool("syscalls", false, "read the thread's CPU clock before and after each step, as the harness does")
	flag.Parse()
	if *procs < 1 || *n < 1 || *step <= 0 {
		fmt.Fprintln(os.Stderr, "slicecount: -procs and -n want at least 1, -step a positive duration")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(*procs)
	const run = 3 * time.Second
	ends := make([][]time.Duration, *n)
	t0 := time.Now()
	var wg sync.WaitGroup
	for i := range ends {
		wg.Go(func() {
			for time.Since(t0) < run {
				if *syscalls {
					burn.ThreadTime()
				}
				burn.Wall.Burn(*step)
				if *syscalls {
					burn.ThreadTime()
				}
				ends[i] = append(ends[i], time.Since(t0))
			}
		})
	}
	wg.Wait()
	bySteps := map[int]int{}
	var spans []time.Duration
	total := 0
	for _, e := range ends {
		total += len(e)
		count, first := 0, time.Duration(0)
		for j := 1; j < len(e); j++ {
			if e[j]-e[j-1] > 3**step {
				if count > 0 && first > run/6 { // past the start
					bySteps[count]++
					spans = append(spans, e[j-1]-first)
				}
				count, first = 0, e[j]
			}
			count++
		}
	}
	slices.Sort(spans)
	fmt.Printf("%.1f steps/s; slices by steps ended: %v\n", float64(total)/run.Seconds(), bySteps)
	if len(spans) > 0 {
		fmt.Printf("first to last step end of a slice: p10 %v, p50 %v, p90 %v\n", spans[len(spans)/10], spans[len(spans)/2], spans[len(spans)*9/10])
	}
}
