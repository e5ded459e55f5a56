package compare_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/report/text"
)

// TestVerdictsFollowIntervals: over many random pairs of samples — equal,
// shifted a little, shifted a lot, few runs and many, wide and narrow — a
// change is called better or worse only where its range of gains lies
// wholly on that side of 0 (or, with too few runs for a range, where the
// U test alone finds it, as benchstat does), and otherwise "~"; the words
// and the fields agree.
func TestVerdictsFollowIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	calls := map[int]int{}
	for trial := range 2000 {
		n1, n2 := 2+rng.IntN(11), 2+rng.IntN(11)
		shift := []float64{0, 0.005, 0.02, 0.1, 0.5}[rng.IntN(5)]
		if rng.IntN(2) == 0 {
			shift = -shift
		}
		spread := []float64{0.001, 0.02, 0.1}[rng.IntN(3)]
		sample := func(n int, center float64) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = center * (1 + spread*rng.NormFloat64())
			}
			return v
		}
		c := compare.Compare(measured("a", "finelocking", 4, sample(n1, 1000)...), measured("a", "finelocking", 4, sample(n2, 1000*(1+shift))...), compare.Options{})
		if len(c.Rows) != 1 {
			t.Fatalf("trial %d: %d rows", trial, len(c.Rows))
		}
		for _, m := range c.Rows[0].Metrics {
			where := fmt.Sprintf("trial %d, %s, n=%d/%d: %+v", trial, m.Name, n1, n2, m)
			calls[m.Change]++
			switch m.Change {
			case 0:
				if !strings.HasPrefix(text.MetricVerdict(m), "~") {
					t.Errorf("%s: no change, yet the verdict says %q", where, text.MetricVerdict(m))
				}
			case 1, -1:
				if !m.Significant || m.TooFew {
					t.Errorf("%s: a change called without significance", where)
				}
				up := m.DeltaPct > 0
				if !math.IsInf(m.GainLo, 0) && !math.IsInf(m.GainHi, 0) {
					// With a range of gains (6 runs a side or more), it
					// must lie wholly on one side of 0.
					if !(m.GainLo > 0 || m.GainHi < 0) {
						t.Errorf("%s: a change called while its range [%.4f, %.4f] holds 0", where, m.GainLo, m.GainHi)
					}
					up = m.GainLo > 0
				} else if !(m.P < 0.05) {
					// With fewer runs, the U test alone decides, as
					// benchstat's does.
					t.Errorf("%s: a change called with p = %.3f", where, m.P)
				}
				if better := (m.Better == "higher") == up; better != (m.Change == 1) {
					t.Errorf("%s: the change goes up %v, yet is called %d", where, up, m.Change)
				}
				word := map[int]string{1: "better", -1: "worse"}[m.Change]
				if !strings.Contains(text.MetricVerdict(m), word) {
					t.Errorf("%s: the verdict %q lacks %q", where, text.MetricVerdict(m), word)
				}
			default:
				t.Errorf("%s: change %d", where, m.Change)
			}
		}
	}
	if calls[1] == 0 || calls[-1] == 0 || calls[0] == 0 {
		t.Errorf("the trials called %v: want some of each, or the property was not tried", calls)
	}
}
