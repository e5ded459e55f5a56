package blueprint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// dist is a step's duration, fixed or drawn from the seeded source.
type dist interface {
	draw(r *rand.Rand) time.Duration
	mean() float64 // seconds
	zero() bool    // always draws 0
	String() string
}

// fixed is a duration that is always the same.
type fixed time.Duration

func (d fixed) draw(*rand.Rand) time.Duration { return time.Duration(d) }
func (d fixed) mean() float64                 { return time.Duration(d).Seconds() }
func (d fixed) zero() bool                    { return d == 0 }
func (d fixed) String() string                { return time.Duration(d).String() }

// uniform draws every nanosecond in [lo, hi] equally often.
type uniform struct{ lo, hi time.Duration }

func (u uniform) draw(r *rand.Rand) time.Duration {
	return u.lo + time.Duration(r.Int64N(int64(u.hi-u.lo)+1))
}
func (u uniform) mean() float64  { return (u.lo + (u.hi-u.lo)/2).Seconds() }
func (u uniform) zero() bool     { return u.hi == 0 }
func (u uniform) String() string { return fmt.Sprintf("{uniform: [%v, %v]}", u.lo, u.hi) }

// exponential draws with the given mean.
type exponential struct{ m time.Duration }

func (e exponential) draw(r *rand.Rand) time.Duration {
	return time.Duration(r.ExpFloat64() * float64(e.m))
}
func (e exponential) mean() float64  { return e.m.Seconds() }
func (e exponential) zero() bool     { return e.m == 0 }
func (e exponential) String() string { return fmt.Sprintf("{exponential: %v}", e.m) }

// normal draws from a normal distribution truncated at 0 (drawing again).
type normal struct{ m, sd time.Duration }

func (n normal) draw(r *rand.Rand) time.Duration {
	for {
		if x := float64(n.m) + float64(n.sd)*r.NormFloat64(); x >= 0 {
			return time.Duration(x)
		}
	}
}

// mean is the truncated distribution's: m + sd·φ(α)/(1−Φ(α)) with
// α = −m/sd, a little above m when sd is not small against m.
func (n normal) mean() float64 {
	if n.sd == 0 {
		return n.m.Seconds()
	}
	a := -float64(n.m) / float64(n.sd)
	phi := math.Exp(-a*a/2) / math.Sqrt(2*math.Pi)
	tail := math.Erfc(a/math.Sqrt2) / 2 // 1 − Φ(α)
	return (n.m + time.Duration(float64(n.sd)*phi/tail)).Seconds()
}
func (n normal) zero() bool     { return n.m == 0 && n.sd == 0 }
func (n normal) String() string { return fmt.Sprintf("{normal: {mean: %v, stddev: %v}}", n.m, n.sd) }

// jittered is the coffee shop's machine step: d, moved by a draw from
// [-j/2, j/2], never below 0 (coffee's Steps).
type jittered struct{ d, j time.Duration }

func (s jittered) draw(r *rand.Rand) time.Duration {
	if s.j <= 0 {
		return s.d
	}
	return max(s.d+time.Duration(r.Int64N(int64(s.j)+1))-s.j/2, 0)
}

// mean is the draws' exact mean: a negative one counts as zero, so jitter
// wider than twice the step lengthens it on average.
func (s jittered) mean() float64 {
	if s.j <= 0 {
		return s.d.Seconds()
	}
	n := float64(s.j) + 1      // equally likely draws
	lo := float64(s.d - s.j/2) // the shortest, maybe negative
	hi := lo + float64(s.j)    // the longest
	if lo >= 0 {
		return (lo + hi) / 2 / 1e9
	}
	if hi <= 0 {
		return 0
	}
	return hi * (hi + 1) / 2 / n / 1e9 // the positive draws are 1, 2, …, hi
}

// zero is the shop's: a step of 0 is none, whatever its jitter.
func (s jittered) zero() bool     { return s.d == 0 }
func (s jittered) String() string { return fmt.Sprintf("%v ± %v", s.d, s.j/2) }
