package lesson

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/brewput/brewput/results"
)

// Verdict is what the measurements say of a claim.
type Verdict string

// The three verdicts: the figure's whole confidence interval lies on the
// claim's side of its threshold, on the other, or neither (or no interval).
const (
	Reproduced    Verdict = "reproduced"
	NotReproduced Verdict = "not reproduced"
	Inconclusive  Verdict = "inconclusive"
)

// Rule is a claim's threshold: the figures from Min to Max bear it out; an
// open side is infinite.
type Rule struct {
	Min float64 `json:"min,omitempty"`
	Max float64 `json:"max,omitempty"`
}

// AtLeast is the rule of a claim borne out by figures of x or more.
func AtLeast(x float64) Rule { return Rule{Min: x, Max: math.Inf(1)} }

// AtMost is the rule of a claim borne out by figures of x or less.
func AtMost(x float64) Rule { return Rule{Min: math.Inf(-1), Max: x} }

// Between is the rule of a claim borne out by figures from lo to hi.
func Between(lo, hi float64) Rule { return Rule{Min: lo, Max: hi} }

// Decide gives the verdict on a figure whose confidence interval is [lo, hi].
func (r Rule) Decide(lo, hi float64) Verdict {
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return Inconclusive
	case lo >= r.Min && hi <= r.Max:
		return Reproduced
	case hi < r.Min || lo > r.Max:
		return NotReproduced
	}
	return Inconclusive
}

// MaxMoreRuns is the most samples MoreRuns estimates.
const MaxMoreRuns = 1000

// MoreRuns estimates how many more samples would take f's interval off the
// threshold it straddles: its width shrinks as one over the root of the
// samples, so an arm a past a threshold at distance d needs about n·(a/d)²
// in all. It is 0 for a decisive interval, -1 where no number would tell.
func (r Rule) MoreRuns(f Figure, minRuns int) int {
	if f.N < minRuns || math.IsInf(f.Lo, 0) || math.IsInf(f.Hi, 0) {
		return max(minRuns-f.N, 1)
	}
	if r.Decide(f.Lo, f.Hi) != Inconclusive {
		return 0
	}
	more := 0
	crossed := []bool{f.Lo < r.Min && f.Hi >= r.Min, f.Hi > r.Max && f.Lo <= r.Max}
	for i, t := range []float64{r.Min, r.Max} {
		if !crossed[i] {
			continue
		}
		d := math.Abs(f.Median - t)
		arm := f.Hi - f.Median // the side of the interval that reaches t
		if t < f.Median {
			arm = f.Median - f.Lo
		}
		if d == 0 {
			return -1
		}
		need := math.Ceil(float64(f.N) * (arm / d) * (arm / d))
		if need-float64(f.N) > MaxMoreRuns {
			return -1
		}
		more = max(more, int(need)-f.N, 1)
	}
	return more
}

// String says the rule for people: "≥ 1.70", "360 to 440".
func (r Rule) String() string { return r.format("") }

func (r Rule) format(unit string) string {
	switch {
	case math.IsInf(r.Max, 1):
		return "≥ " + FormatValue(r.Min, unit)
	case math.IsInf(r.Min, -1):
		return "≤ " + FormatValue(r.Max, unit)
	}
	if unit == Ratio {
		return FormatValue(r.Min, unit) + " to " + FormatValue(r.Max, unit)
	}
	return Bare(r.Min, unit) + " to " + FormatValue(r.Max, unit)
}

// MarshalJSON writes the rule as {"min": x, "max": y}, leaving out an open side.
func (r Rule) MarshalJSON() ([]byte, error) {
	type plain Rule // without this method
	return results.MarshalNulls(plain(r))
}

// UnmarshalJSON reads what MarshalJSON writes, an absent side as open.
func (r *Rule) UnmarshalJSON(data []byte) error {
	type plain Rule
	p := plain{Min: math.Inf(-1), Max: math.Inf(1)}
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	if *r = Rule(p); r.Min > r.Max {
		return fmt.Errorf("rule: min %v is above max %v", r.Min, r.Max)
	}
	return nil
}
