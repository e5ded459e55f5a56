package workloads

import (
	"sync"

	"github.com/brewput/brewput/lab"
)

// addInput returns the integers 0 … n-1, whose sum n(n-1)/2 checks every
// run exactly.
func addInput(n int) []int {
	numbers := make([]int, n)
	for i := range numbers {
		numbers[i] = i
	}
	return numbers
}

// addWant is the sum of addInput(n).
func addWant(n int) int { return n * (n - 1) / 2 }

// add sums numbers in one goroutine: pure arithmetic with nothing to wait
// for, the CPU-bound workload.
func add(numbers []int) int {
	var v int
	for _, n := range numbers {
		v += n
	}
	return v
}

// addConcurrent sums one contiguous part of numbers per goroutine at the
// same time and adds up the partial sums. Each goroutine writes its own
// slot once, at the end, so they share nothing while they work.
func addConcurrent(goroutines int, numbers []int) int {
	partial := make([]int, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		lo, hi := lab.Part(len(numbers), goroutines, g)
		wg.Go(func() { partial[g] = add(numbers[lo:hi]) })
	}
	wg.Wait()
	return add(partial)
}
