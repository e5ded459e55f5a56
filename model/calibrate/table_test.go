package calibrate

import (
	"strings"
	"testing"
)

// TestRangeText: an inference's range line says the flat tolerance where
// no point's runs spread wider, and where some do, how many and the
// widest; a file of a version before per-point tolerances (none recorded)
// reads as the flat one.
func TestRangeText(t *testing.T) {
	flat := &Inference{Tolerance: 0.01, Fit: []PointFit{{Point: "a"}, {Point: "b"}}}
	spread := &Inference{Tolerance: 0.01, Fit: []PointFit{
		{Point: "a", ThroughputTolerance: 0.01, P50Tolerance: 0.01},
		{Point: "b", ThroughputTolerance: 0.034, P50Tolerance: 0.083}}}
	for _, c := range []struct {
		in        *Inference
		want, not []string
	}{
		{flat, []string{"no point more than 1 % farther outside"}, []string{"spread"}},
		{spread, []string{"by more than 1 %, or by its runs' own spread where wider (2 of the 4 throughputs and p50s; widest 8.3 %, p50 of b)"}, nil},
	} {
		got := c.in.rangeText()
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("no %q in %q", w, got)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%q in %q", n, got)
			}
		}
	}
}
