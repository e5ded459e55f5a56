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
	mean() time.Duration
	zero() bool // always draws 0
	String() string
}

// fixed is a duration that is always the same.
type fixed time.Duration

func (d fixed) draw(*rand.Rand) time.Duration { return time.Duration(d) }
func (d fixed) mean() time.Duration           { return time.Duration(d) }
func (d fixed) zero() bool                    { return d == 0 }
func (d fixed) String() string                { return time.Duration(d).String() }

// uniform draws every nanosecond in [lo, hi] equally often.
type uniform struct{ lo, hi time.Duration }

func (u uniform) draw(r *rand.Rand) time.Duration {
	return u.lo + time.Duration(r.Int64N(int64(u.hi-u.lo)+1))
}
func (u uniform) mean() time.Duration { return u.lo + (u.hi-u.lo)/2 }
func (u uniform) zero() bool          { return u.hi == 0 }
func (u uniform) String() string      { return fmt.Sprintf("{uniform: [%v, %v]}", u.lo, u.hi) }

// exponential draws with the given mean.
type exponential struct{ m time.Duration }

func (e exponential) draw(r *rand.Rand) time.Duration {
	return time.Duration(r.ExpFloat64() * float64(e.m))
}
func (e exponential) mean() time.Duration { return e.m }
func (e exponential) zero() bool          { return e.m == 0 }
func (e exponential) String() string      { return fmt.Sprintf("{exponential: %v}", e.m) }

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
func (n normal) mean() time.Duration {
	if n.sd == 0 {
		return n.m
	}
	a := -float64(n.m) / float64(n.sd)
	phi := math.Exp(-a*a/2) / math.Sqrt(2*math.Pi)
	tail := math.Erfc(a/math.Sqrt2) / 2 // 1 − Φ(α)
	return n.m + time.Duration(float64(n.sd)*phi/tail)
}
func (n normal) zero() bool     { return n.m == 0 && n.sd == 0 }
func (n normal) String() string { return fmt.Sprintf("{normal: {mean: %v, stddev: %v}}", n.m, n.sd) }
