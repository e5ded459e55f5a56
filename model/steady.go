package model

import (
	"math"
	"time"

	"github.com/brewput/brewput/results"
)

// An open loop has a steady state once its queue neither grows nor
// shrinks: at once where the servers keep up, and, where the arrivals
// outrun them, only when the queue is full and the excess is dropped.
// The window is measured there: the warm-up waits for the queue to fill
// where a bound says that it will (FillWarmup), and a run whose queue
// still grew through its window is run again with the warm-up its growth
// says the queue needs (Refill), up to MaxRefills times. A point that is still not steady says so
// (Result.Steady).

// MaxRefills is how many times an open loop that is not steady is run
// again with a longer warm-up (Refill): a queue whose servers speed up
// as it grows (fewer idle wake-ups) fills more slowly than its first
// growth says.
const MaxRefills = 3

// MaxFill is the longest warm-up, in windows, that an open loop is given
// to fill its queue: arrivals that outrun the servers by very little fill
// it too slowly to wait for, and such a point says that it is not steady.
const MaxFill = 40

// Serves is the most the servers of an open loop can serve a second by
// the bounds, the arrivals aside: the least of the CPU bound, the
// structural bound and the servers over one operation's least latency.
func (b Bounds) Serves(servers int) float64 {
	x := min(b.CPU, b.Structural)
	if b.LatencyMin > 0 {
		x = min(x, float64(servers)/b.LatencyMin.Seconds())
	}
	return x
}

// FillWarmup is the warm-up of an open loop of rate arrivals a second
// into room places (the queue and the servers) whose bounds let it serve
// at most serves a second. Where the arrivals outrun that, its queue fills
// at their difference or faster, so it is full after room ÷ (rate −
// serves) at the latest; and its latencies are steady only once the
// requests let in before it was full have gone, room ÷ serves later at
// the soonest. The warm-up waits both, and a quarter more, since a
// policy's costs serve fewer than the bound. It is warmup otherwise, or
// where that would take more than MaxFill windows of dur.
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

// Growth is how many more requests an open loop held, queued or in
// service, at the end of r's window than at its start.
func (r Result) Growth() int { return r.InSystem[1] - r.InSystem[0] }

// Steady reports whether r's queue held steady over its window (see
// results.QueueSteady); a closed loop's steadiness is its Little's law check.
func (r Result) Steady() bool { return results.QueueSteady(r.Growth(), r.Arrived) }

// Refill is the warm-up after which an open loop that was not steady in r
// will be, where its queue grew through r's window and had room left: the
// time r ran to the window's end, the time the queue takes to fill the
// rest of room at the rate it grew, a quarter more, and the time r's
// throughput takes to serve room, for the requests let in before the
// queue was full to have gone. false where r was steady, where its queue
// shrank, or where that warm-up would pass MaxFill windows.
func (r Result) Refill(room int) (time.Duration, bool) {
	g := r.Growth()
	if r.Steady() || g <= 0 || r.Window <= 0 || r.Throughput <= 0 {
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
