package calibrate

import (
	"strings"
	"time"

	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// KeepEarlier is how many earlier calibrations of one machine a
// calibration carries: the costs move between calibrations far more than
// between the repeats of one (this machine's wake-up read 45.8 µs one day
// and 18.6–20.9 µs in five calibrations the next), so a band that is to
// say what the model does not know spans them all.
const KeepEarlier = 9

// Earlier is an earlier calibration of the same machine: when it was
// measured, how busy the machine was, and its costs with their intervals.
type Earlier struct {
	Date   time.Time `json:"date"`
	Others float64   `json:"others_cpus"`
	Costs  sim.Costs `json:"costs"`
	Lo     sim.Costs `json:"costs_lo"`
	Hi     sim.Costs `json:"costs_hi"`
}

// After is c carrying prev and the calibrations prev carries, newest
// first, at most KeepEarlier of them, where both were measured on a quiet
// machine — the same host, CPU model and Go version: prev's costs are
// then as much this machine's as c's. Otherwise it is c alone.
func (c Calibration) After(prev Calibration) Calibration {
	if !c.sameMachine(prev) || !c.quiet() || !prev.quiet() {
		return c
	}
	earlier := []Earlier{{Date: prev.Date, Others: prev.Others, Costs: prev.Costs, Lo: prev.Lo, Hi: prev.Hi}}
	earlier = append(earlier, prev.Earlier...)
	c.Earlier = earlier[:min(len(earlier), KeepEarlier)]
	return c
}

func (c Calibration) sameMachine(o Calibration) bool {
	return c.Host.Name == o.Host.Name && c.Host.CPUModel == o.Host.CPUModel && c.Host.GoVersion == o.Host.GoVersion &&
		c.Host.Name != ""
}

// quiet reports whether c was measured, not inferred, and on a quiet
// machine.
func (c Calibration) quiet() bool {
	return c.Inferred == nil && c.Samples > 0 && !c.Forced && !c.Unsaved && c.Others < results.DisturbedCPUs
}

// Span is each cost's least low edge and greatest high edge over c and
// the earlier calibrations it carries: the costs a band spans.
func (c Calibration) Span() (lo, hi sim.Costs) {
	lo, hi = c.Lo, c.Hi
	for _, e := range c.Earlier {
		for _, name := range costFlags() {
			l, h := Field(&lo, name), Field(&hi, name)
			*l = min(*l, *Field(&e.Lo, name))
			*h = max(*h, *Field(&e.Hi, name))
		}
	}
	return lo, hi
}

// Since is when the oldest calibration c carries was measured (c's own
// date where it carries none).
func (c Calibration) Since() time.Time {
	if len(c.Earlier) == 0 {
		return c.Date
	}
	return c.Earlier[len(c.Earlier)-1].Date
}

// costFlags are the costs' flags, in brewput calibrate's order.
func costFlags() []string {
	out := make([]string, len(costNames))
	for i, n := range costNames {
		out[i] = strings.ReplaceAll(n, " ", "-")
	}
	return out
}
