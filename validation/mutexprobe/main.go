// Command mutexprobe is a one-off probe of sync.Mutex on this machine, not
// a check that is run again: two goroutines on two Ps take and release one
// mutex around an empty critical section for two seconds, then one alone
// for a second. It prints their throughput against the one alone's, how
// often the lock changed hands (an acquisition by the other goroutine than
// the last), and how long goroutines waited asleep on it (the runtime's
// /sync/mutex/wait/total:seconds), which docs/model.md quotes: the model's
// contended short-hold mutex differs from what this shows.
//
//	go run ./mutexprobe [-runs 3]
package main

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	runs := flag.Int("runs", 3, "how many times to probe")
	flag.Parse()
	runtime.GOMAXPROCS(2)
	for range *runs {
		probe()
	}
}

// probe runs the two goroutines, then the one, and prints what it saw.
func probe() {
	var mu sync.Mutex
	var last, handovers int64 // under mu
	var ops [2]int64
	var stop atomic.Bool
	waited := func() float64 {
		s := []metrics.Sample{{Name: "/sync/mutex/wait/total:seconds"}}
		metrics.Read(s)
		return s[0].Value.Float64()
	}
	before := waited()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range ops {
		wg.Go(func() {
			id, n := int64(i+1), int64(0)
			for !stop.Load() {
				for range 1000 {
					mu.Lock()
					if last != id {
						handovers++
						last = id
					}
					mu.Unlock()
					n++
				}
			}
			ops[i] = n
		})
	}
	time.Sleep(2 * time.Second)
	stop.Store(true)
	wg.Wait()
	two := float64(ops[0]+ops[1]) / time.Since(start).Seconds()
	wait := waited() - before

	var alone int64
	start = time.Now()
	for time.Since(start) < time.Second {
		for range 1000 {
			mu.Lock()
			mu.Unlock()
			alone++
		}
	}
	one := float64(alone) / time.Since(start).Seconds()
	fmt.Printf("one goroutine %.1f M/s; two %.1f M/s (%.2f×), %d and %d operations, the lock changing hands every %.0f, %.3f s asleep\n",
		one/1e6, two/1e6, two/one, ops[0], ops[1], float64(ops[0]+ops[1])/float64(max(handovers, 1)), wait)
}
