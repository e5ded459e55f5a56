// Package parallel runs independent pieces of work — simulations, mostly —
// as many at once as there are CPUs.
package parallel

import (
	"runtime"
	"sync"
)

// Do calls f(0) … f(n-1), as many at once as there are CPUs, and returns
// when all have returned.
func Do(n int, f func(int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), n) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
