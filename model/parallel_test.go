package model

import (
	"sync/atomic"
	"testing"
)

// TestInParallelCallsEachOnce: every index, once, whatever the count.
func TestInParallelCallsEachOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100} {
		calls := make([]atomic.Int32, n)
		inParallel(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n = %d: f(%d) called %d times", n, i, c)
			}
		}
	}
}
