package workloads

import (
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/brewput/brewput/lab"
)

// sortInput returns n pseudo-random integers, the same for every run, and
// the same integers sorted by the standard library, against which every
// bubble sort is checked: equal to it means sorted and a permutation of the
// input.
func sortInput(n int) (input, want []int) {
	r := rand.New(rand.NewPCG(6, 1))
	input = make([]int, n)
	for i := range input {
		input[i] = r.IntN(1 << 30)
	}
	want = slices.Clone(input)
	slices.Sort(want)
	return input, want
}

// bubbleSort sorts a in place: pass after pass over the unsorted front,
// each carrying the largest element it meets to the end, until a pass
// moves nothing. Each step writes the smaller and the larger of two
// neighbours rather than branching on which is larger: a branch the CPU
// mispredicts on random input and not on sorted runs would make sorting
// halves and then the whole faster than one sort even on one CPU (about
// 1.3×), for a reason that has nothing to do with concurrency. Without
// it, time follows the comparisons, the cost the lesson is about.
func bubbleSort(a []int) {
	n := len(a)
	for pass := 0; pass < n; pass++ {
		swapped := false
		for j := 0; j+1 < n-pass; j++ {
			x, y := a[j], a[j+1]
			a[j], a[j+1] = min(x, y), max(x, y)
			swapped = swapped || x > y
		}
		if !swapped {
			return
		}
	}
}

// sortConcurrent bubble-sorts one contiguous chunk of a per goroutine at
// the same time, then bubble-sorts the whole of a, because sorted chunks
// are not a sorted slice. That last sort is the lesson: with two chunks it
// still needs about half as many passes as sorting from scratch, each over
// most of the slice, about ¾ of the comparisons of a plain sort, so what
// the goroutines saved is spent again in one goroutine.
func sortConcurrent(goroutines int, a []int) {
	var wg sync.WaitGroup
	for g := range goroutines {
		lo, hi := lab.Part(len(a), goroutines, g)
		wg.Go(func() { bubbleSort(a[lo:hi]) })
	}
	wg.Wait()
	bubbleSort(a)
}
