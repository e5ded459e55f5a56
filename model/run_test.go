package model

import (
	"testing"

	"github.com/brewput/brewput/results"
)

// TestLockstepCaveat: a closed loop one of whose customers finished
// nothing while the others finished many is marked; one where every
// customer finished some, or all too few to tell, is not.
func TestLockstepCaveat(t *testing.T) {
	for _, c := range []struct {
		done []int
		want bool
	}{
		{[]int{3912, 0}, true},
		{[]int{500, 0, 480, 0}, true},
		{[]int{3070, 3070}, false},
		{[]int{1, 0}, false}, // one long operation: too few to tell
		{[]int{0, 0}, false},
		{[]int{40}, false},
	} {
		cv := lockstepCaveat(c.done)
		got := len(cv) == 1 && cv[0].Kind == results.CaveatLockstep
		if got != c.want {
			t.Errorf("done %v: caveats %+v; want lockstep %v", c.done, cv, c.want)
		}
		if got && (cv[0].Customers != len(c.done) || cv[0].Idle < 1 || cv[0].Each < 1) {
			t.Errorf("done %v: caveat %+v", c.done, cv[0])
		}
	}
}
