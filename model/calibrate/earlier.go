package calibrate

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// KeepEarlier is how many earlier calibrations of one machine a
// calibration carries: the costs move between calibrations far more than
// between the repeats of one, and a band spans them all.
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

// After is c carrying the quiet calibrations before it of the same host,
// CPU model and Go version (prev, if quiet, and those prev carries),
// newest first, at most KeepEarlier.
func (c Calibration) After(prev Calibration) Calibration {
	if !c.sameMachine(prev) {
		return c
	}
	var earlier []Earlier
	if prev.quiet() {
		earlier = append(earlier, Earlier{Date: prev.Date, Others: prev.Others, Costs: prev.Costs, Lo: prev.Lo, Hi: prev.Hi})
	}
	earlier = append(earlier, prev.Earlier...)
	c.Earlier = earlier[:min(len(earlier), KeepEarlier)]
	return c
}

func (c Calibration) sameMachine(o Calibration) bool {
	return c.Host.Name == o.Host.Name && c.Host.CPUModel == o.Host.CPUModel && c.Host.GoVersion == o.Host.GoVersion &&
		c.Host.Name != ""
}

// quiet reports whether c was measured on a quiet machine.
func (c Calibration) quiet() bool {
	return c.Samples > 0 && !c.Forced && !c.Unsaved && c.Others < results.DisturbedCPUs
}

// disturbed reports whether c was measured on a busy machine.
func (c Calibration) disturbed() bool {
	return c.Samples > 0 && (c.Forced || c.Unsaved || c.Others >= results.DisturbedCPUs)
}

// Hedged is the calibration a prediction uses for c: c itself where it
// was measured on a quiet machine, else the newest quiet one it carries
// (After) or, with none, the reference machine's (Reference), naming c in
// SetAside: a busy machine's costs say little.
func (c Calibration) Hedged() Calibration {
	if !c.disturbed() {
		return c
	}
	aside := &results.SetAside{Date: c.Date, Others: c.Others, Forced: c.Forced, Unsaved: c.Unsaved, Costs: c.Rows()}
	if len(c.Earlier) > 0 {
		e := c.Earlier[0]
		return Calibration{Host: c.Host, Date: e.Date, Costs: e.Costs, Lo: e.Lo, Hi: e.Hi, Samples: c.Samples, Repeats: c.Repeats,
			Others: e.Others, Earlier: slices.Clone(c.Earlier[1:]), SetAside: aside}
	}
	r := Reference()
	aside.Reference = true
	r.SetAside = aside
	return r
}

// Unknown reports whether c's costs are the reference machine's (Hedged).
func (c Calibration) Unknown() bool { return c.SetAside != nil && c.SetAside.Reference }

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
	return collect.Mapped(costNames, func(n string) string { return strings.ReplaceAll(n, " ", "-") })
}

// referenceJSON is brewput's reference machine's calibration: a 2-vCPU
// AMD EPYC VM, measured quietly.
//
//go:embed reference.json
var referenceJSON string

// ReferenceHost names the reference machine (Reference).
const ReferenceHost = "brewput's reference VM"

// Reference is the calibration a prediction uses where this machine's was
// measured on a busy machine and no quiet one is kept (Hedged).
func Reference() Calibration {
	var c Calibration
	if err := json.Unmarshal([]byte(referenceJSON), &c); err != nil {
		panic("calibrate: the embedded reference calibration: " + err.Error()) // a build's file, checked by the tests
	}
	upgrade(&c)
	c.Host.Name, c.Dists, c.Earlier = ReferenceHost, nil, nil
	return c
}
