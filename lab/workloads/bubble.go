package workloads

import (
	"math/rand/v2"
	"slices"
	"sync"
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
// each carrying the largest element it meets to the end, until a pass moves
// nothing.
//
// Each step writes the smaller and the larger of two neighbours instead of
// branching on which is larger. On random input such a branch is a coin
// toss the CPU mispredicts half the time, while over already sorted runs it
// is predicted almost always; with it, a sort that first sorts halves and
// then sorts the whole again runs faster than one plain sort even on one CPU
// (about 1.3× on the machine this was written on), for a reason that has
// nothing to do with concurrency. Without the branch a step costs the same
// whatever the data, so time follows the number of comparisons, the cost
// the lesson is about.
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
	stride := len(a) / goroutines
	var wg sync.WaitGroup
	for g := range goroutines {
		lo, hi := g*stride, (g+1)*stride
		if g == goroutines-1 {
			hi = len(a)
		}
		wg.Go(func() { bubbleSort(a[lo:hi]) })
	}
	wg.Wait()
	bubbleSort(a)
}
