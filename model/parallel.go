package model

import (
	"runtime"
	"sync"
)

// inParallel calls f(0) … f(n-1), as many at once as there are CPUs, and
// returns when all have returned: the simulations of one call to
// Simulate, each independent of the others.
func inParallel(n int, f func(int)) {
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
