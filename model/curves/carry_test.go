package curves

import (
	"slices"
	"testing"
)

// cut is c's points on up to n CPUs.
func cut(c *Curves, n int) *Curves {
	out := *c
	out.Points = slices.DeleteFunc(slices.Clone(c.Points), func(p Point) bool { return p.CPUs > n })
	return &out
}

// Carry reaches past the counts measured as far as asked, up to
// CarryFactor times them, marking what it carried; a lock whose take
// grows with its contenders, already its limit on 8 CPUs or not yet on
// 16, and work alone, measured on 1–8 CPUs, are carried to 16 within their
// bands, which widen with the distance. (A lock that becomes the limit
// between the counts measured and those asked is not: nothing measured
// shows where.)
func TestCarry(t *testing.T) {
	l := lock{take: func(n int) float64 { return 20 + 2*float64(n) }}
	whole := synthetic(l, 1)
	c := cut(whole, 8).Carry(256)
	if c.MaxCPUs() != 8 || c.Reach() != 128 {
		t.Errorf("measured to %d, reach %d; want 8 and 16×8 = 128", c.MaxCPUs(), c.Reach())
	}
	for _, p := range c.Points {
		if p.Carried != (p.CPUs > 8) {
			t.Fatalf("a point on %d CPUs carried %v", p.CPUs, p.Carried)
		}
	}
	for _, cell := range []Cell{{Shape: Mutex, Hold: 25, Outside: 200}, {Shape: Mutex, Hold: 0, Outside: 1000}, {Shape: Mutex, Hold: 100, Outside: 200}, {Shape: Alloc, Outside: 200}} {
		truth, _, _, _ := whole.Speedup(cell, 16)
		mid, lo, hi, ok := c.Speedup(cell, 16)
		if !ok || truth < lo*0.98 || truth > hi*1.02 {
			t.Errorf("%+v on 16: %.3g [%.3g, %.3g], ok %v; want the band to hold %.3g", cell, mid, lo, hi, ok, truth)
		}
		_, lo64, hi64, _ := c.Speedup(cell, 64)
		if hi64/lo64 < hi/lo {
			t.Errorf("%+v: band ×%.2f wide on 64, ×%.2f on 16: want it wider farther out", cell, hi64/lo64, hi/lo)
		}
	}
	// Work alone is not read as staying where it ended.
	mid, lo, _, _ := c.Speedup(Cell{Shape: Alloc, Outside: 200}, 64)
	if mid < 50 || lo < mid/2 {
		t.Errorf("work alone on 64 CPUs: %.3g, band from %.3g; want it carried about linearly, its band not down to 8 CPUs'", mid, lo)
	}
	if _, _, _, ok := c.Speedup(Cell{Shape: Mutex, Hold: 25, Outside: 200}, 129); ok {
		t.Error("a speed-up past the reach")
	}
}

// nonNegative finds the least-squares fit whose coefficients are all
// zero or more: an exact line where the data lie on one, and a
// coefficient the unconstrained fit would make negative held at zero.
func TestNonNegative(t *testing.T) {
	rows := [][]float64{{1, 1}, {1, 2}, {1, 3}}
	x := nonNegative(rows, []float64{3, 5, 7}) // 1 + 2n
	near(t, "intercept", x[0], 1, 1e-9)
	near(t, "slope", x[1], 2, 1e-9)
	x = nonNegative(rows, []float64{5, 4, 3}) // falling: no slope of zero or more but zero
	if x[1] != 0 {
		t.Errorf("slope %v, want 0", x[1])
	}
	near(t, "intercept of the flat fit", x[0], 4, 1e-9)
}
