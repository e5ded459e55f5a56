package model

import (
	"math"
	"time"

	"github.com/brewput/brewput/results"
)

// An open loop is steady once its queue holds: at once where the servers
// keep up, else once it is full. The warm-up waits for a queue the bounds
// say fills (FillWarmup); a run whose queue still grew runs again with a
// longer one (refill), up to MaxRefills times.
const MaxRefills = 3

// MaxFill is the longest warm-up, in windows, a queue gets to fill.
const MaxFill = 40

// FillWarmup is the warm-up of rate arrivals a second into room places
// serving at most serves a second: where they outrun that, the time to
// fill the queue and serve it, and a quarter more. Else, or past MaxFill
// windows of dur, warmup.
func FillWarmup(warmup, dur time.Duration, rate float64, room int, serves float64) time.Duration {
	if rate <= serves || math.IsInf(serves, 0) || serves <= 0 {
		return warmup
	}
	fill := time.Duration(1.25 * float64(room) * (1/(rate-serves) + 1/serves) * float64(time.Second))
	if fill > MaxFill*dur {
		return warmup
	}
	return max(warmup, fill)
}

// growth is how many more requests an open loop held at r's window's end.
func (r result) growth() int { return r.InSystem[1] - r.InSystem[0] }

// refill is the warm-up after which an open loop whose queue grew through
// r's window is steady; false where r was steady or past MaxFill windows.
func (r result) refill(room int) (time.Duration, bool) {
	g := r.growth()
	if results.QueueSteady(g, r.Arrived) || g <= 0 || r.Window <= 0 || r.Throughput <= 0 {
		return 0, false
	}
	left := max(room-r.InSystem[1], 0)
	fill := time.Duration(1.25 * float64(left) / float64(g) * float64(r.Window))
	drain := time.Duration(float64(room) / r.Throughput * float64(time.Second))
	warmup := r.Warmup + r.Window + fill + drain
	if warmup > MaxFill*r.Window {
		return 0, false
	}
	return warmup, true
}
