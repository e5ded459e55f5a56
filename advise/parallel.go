package advise

import (
	"runtime"
	"sync"
)

// parallel calls f(0) … f(n-1), as many at once as there are CPUs.
func parallel(n int, f func(int)) {
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
