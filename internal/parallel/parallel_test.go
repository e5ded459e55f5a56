package parallel

import (
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDoCallsEachOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100} {
		calls := make([]atomic.Int32, n)
		Do(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n = %d: f(%d) called %d times", n, i, c)
			}
		}
	}
}
