package results

import (
	"fmt"
	"math"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
)

// Trust is what a reader must know of a point before believing its numbers.
type Trust struct {
	// Disturbed says other processes took CPU from a measurement (see
	// IsDisturbed): OthersCPUs, and the hypervisor StealCPUs, of the machine.
	Disturbed  bool    `json:"disturbed"`
	OthersCPUs float64 `json:"others_cpus,omitempty"`
	StealCPUs  float64 `json:"steal_cpus,omitempty"`
	// OnCPUs is what others took of the CPUs the point ran on (its
	// CPUSet) alone; nil where they were not read apart.
	OnCPUs *OnCPUs `json:"on_cpus,omitempty"`
	// Attempts is how many times a point was measured, the least
	// disturbed kept; 0 where unknown.
	Attempts int `json:"attempts,omitempty"`
	// Steady says whether a prediction's window was in the steady state;
	// nil where not known.
	Steady *bool `json:"steady,omitempty"`
	// Above lists the bounds the point passes, and why it may.
	Above []Above `json:"above,omitempty"`
	// Calibration is the costs a go-policy prediction was simulated with.
	Calibration *Calibration `json:"calibration,omitempty"`
	// Caveats are what a prediction leaves out that is known to matter
	// for this point, each with the row's note.
	Caveats []Caveat `json:"caveats,omitempty"`
}

// Caveat is a mechanism a prediction leaves out where real machines are
// known to differ, named for the point it concerns.
type Caveat struct {
	// Kind is CaveatShortHold, CaveatSharedLine or CaveatLockstep.
	Kind string `json:"kind"`
	// Resource is the lock it concerns.
	Resource string `json:"resource,omitempty"`
	// Text says it in words: the row's note.
	Text string `json:"text"`
}

// CaveatShortHold: a shared lock held briefly and contended (busy, or its
// word waited for, much of the time) on more than one CPU: its prediction
// is rough (ShortHoldSpread).
const CaveatShortHold = "short_hold"

// CaveatSharedLine: a word many cores write (an atomic counter, a
// read-write lock's reader count) whose cache line the CPUs waited for
// much of their time: its prediction is rough (SharedLineSpread).
const CaveatSharedLine = "shared_line"

// CaveatLockstep: some customers of a closed loop finished nothing in the
// window while the others finished many, which the model's exact times can
// make and machines do not: the point is not to be trusted.
const CaveatLockstep = "lockstep"

// What machines did where a caveat's mechanism decides, as validation
// found it (docs/model.md): each caveat's text and its brief say it.
const (
	ShortHoldSpread = "real machines ran locks this brief and contended from a sixteenth of to ten times the " +
		"model's figure, most within 4× either way"
	SharedLineSpread = "machines measured kept a word their cores add to at a core from hardly at all to about as long " +
		"as it took to come, where the model keeps it half that, and such words ran at 0.4 to 1.7 times the model's figure"
)

// Brief says why a caveat of c's kind was made, without the point's
// particulars, for a sentence that states figures of several points.
func (c Caveat) Brief() string {
	switch c.Kind {
	case CaveatShortHold:
		return ShortHoldSpread
	case CaveatSharedLine:
		return SharedLineSpread
	case CaveatLockstep:
		return "some customers finished nothing in the window, held out by the model's exact times"
	}
	return c.Text
}

// Untrusted says the figure is not to be trusted (lockstep), where the
// other caveats make it rough.
func (c Caveat) Untrusted() bool { return c.Kind == CaveatLockstep }

// Above is a bound of a point's Bounds (or an open loop's arrival rate)
// that a number of the point passes, and why it may.
type Above struct {
	// Bound is BoundThroughput, BoundArrivals or BoundLatency.
	Bound string `json:"bound"`
	// Why is WhyRandomSteps, WhyWallClock, WhyPoisson, WhyWindowEdge or
	// WhyBacklog.
	Why string `json:"why"`
	// Of names the numbers past the bound: "throughput", "band" (its high
	// edge), or the latencies below the least ("min, p05").
	Of string `json:"of,omitempty"`
	// Text says it in words, numbers and reason: the row's note.
	Text string `json:"text,omitempty"`
}

// The bounds a point may pass (Bounds.ThroughputMax, an open loop's arrival
// rate, Bounds.LatencyMinMs), and why it may (see Assess).
const (
	BoundThroughput = "throughput_max"
	BoundArrivals   = "arrivals"
	BoundLatency    = "latency_min"

	WhyRandomSteps = "random_steps"
	WhyWallClock   = "wall_clock"
	WhyPoisson     = "poisson"
	// WhyWindowEdge: operations under way when the window opened, their
	// work partly before it, end inside it: a window counts up to one more
	// per customer than its bound allows.
	WhyWindowEdge = "window_edge"
	// WhyBacklog: orders that arrived before a measured window were
	// served in it.
	WhyBacklog = "backlog"
)

// DisturbedCPUs is the one threshold of disturbance, which every
// measurement and the tests' timing guards judge by (see Disturbs).
const DisturbedCPUs = 0.2

// Disturbs reports whether others CPUs' worth of time taken by other
// processes and the hypervisor, of set CPUs of which a measurement used
// cpus, disturbed it: more than DisturbedCPUs beyond the CPUs it left free.
func Disturbs(others float64, set, cpus int) bool {
	return others > float64(max(set-cpus, 0))+DisturbedCPUs
}

// OnCPUs is what other processes, and the hypervisor, took of the CPUs a
// point ran on during its window.
type OnCPUs struct {
	// CPUs is how many they are: the point's CPUSet.
	CPUs       int     `json:"cpus"`
	OthersCPUs float64 `json:"others_cpus"`
	StealCPUs  float64 `json:"steal_cpus,omitempty"`
}

// IsDisturbed reports whether p was marked disturbed, or other processes
// disturbed it (Disturbs): of its own CPUs where read apart (OnCPUs), else
// of the machine's.
func (p Point) IsDisturbed() bool {
	if p.Disturbed {
		return true
	}
	if on := p.OnCPUs; on != nil {
		return Disturbs(on.OthersCPUs+on.StealCPUs, on.CPUs, p.CPUs)
	}
	return Disturbs(p.OthersCPUs+p.StealCPUs, p.Host.Cores, p.CPUs)
}

// TooDisturbed counts the disturbed runs of one benchmark on one CPU count
// and reports whether too few are left to stand on: fewer than a median
// with a spread needs (two, or the one run there was).
func TooDisturbed(runs []Point) (disturbed int, too bool) {
	for _, p := range runs {
		if p.IsDisturbed() {
			disturbed++
		}
	}
	quiet := len(runs) - disturbed
	return disturbed, quiet < min(len(runs), 2)
}

// Interference says what took CPU from a disturbed point: "other
// processes took 0.45 CPUs of its 1"; "" where p is not disturbed.
func (p Point) Interference() string {
	if !p.IsDisturbed() {
		return ""
	}
	others, steal := p.OthersCPUs, p.StealCPUs
	of := ""
	if on := p.OnCPUs; on != nil {
		others, steal = on.OthersCPUs, on.StealCPUs
		of = fmt.Sprintf(" of its %s", format.Count(on.CPUs, "CPU"))
	}
	s := fmt.Sprintf("other processes took %.2f CPUs%s", others, of)
	if steal >= 0.005 {
		s += fmt.Sprintf(" and the hypervisor %.2f", steal)
	}
	return s
}

// How far a window may stray and still be steady: an open loop's queue may
// grow or shrink by SteadyGrowth of its arrivals (at least SteadyMinGrowth),
// a closed loop's Little's law check lie LittleTolerance from 1.
const (
	SteadyGrowth    = 0.05
	SteadyMinGrowth = 10
	LittleTolerance = 0.02
)

// QueueSteady reports whether an open loop whose queue grew by growth
// (shrank, if negative) over a window of arrived arrivals held steady.
func QueueSteady(growth, arrived int) bool {
	return max(growth, -growth) <= max(SteadyMinGrowth, int(SteadyGrowth*float64(arrived)))
}

// passes is how far above a bound a number must be to pass it: only
// floating-point noise is forgiven, so that no number shown above a bound
// goes without its reason.
const passes = 1 + 1e-9

// Assess fills p's Trust from its numbers, where p is made or read: every
// number above a bound the point states (throughput or its band's high
// edge above ThroughputMax or the arrival rate, a latency below
// LatencyMinMs) gets an Above saying why.
func (p *Point) Assess() {
	p.Disturbed = p.IsDisturbed()
	p.Steady = nil
	if b := p.Bounds; b != nil && p.IsModel() {
		if b.Little != 0 {
			p.Steady = new(math.Abs(b.Little-1) <= LittleTolerance)
		}
		if p.Rate > 0 && b.Arrived > 0 {
			p.Steady = new(QueueSteady(b.Growth, b.Arrived) && (p.Steady == nil || *p.Steady))
		}
	}
	p.AssessAbove()
}

// AssessAbove fills p's Above alone (see Assess).
func (p *Point) AssessAbove() {
	p.Above = nil
	b := p.Bounds
	if p.Rate > 0 && !p.IsModel() && p.Throughput > passes*p.Rate {
		// A measured open loop's arrivals are even: it can serve more than
		// its rate only by serving orders queued before its window.
		p.Above = append(p.Above, Above{BoundArrivals, WhyBacklog, "throughput",
			fmt.Sprintf("%.1f a second above the arrival rate %g: orders that arrived before the window were served in it; %s", p.Throughput, p.Rate, meansArrivals)})
	}
	if b == nil || !p.IsModel() {
		return
	}
	if p.Rate > 0 && p.Throughput > passes*p.Rate && b.Arrived > 0 && p.Dur > 0 {
		arrived := float64(b.Arrived) / p.Dur.Seconds()
		text := fmt.Sprintf("%.1f a second above the arrival rate %g: arrivals are random (Poisson), %.0f a second arrived in this window", p.Throughput, p.Rate, arrived)
		if p.Throughput > arrived {
			text += ", and orders queued before it were served in it"
		}
		text += "; " + meansArrivals
		p.Above = append(p.Above, Above{BoundArrivals, WhyPoisson, "throughput", text})
	}
	if lim := b.ThroughputMax; lim > 0 && b.SetBy != "arrivals" {
		band := 0.0
		if p.Band != nil {
			band = p.Band.Throughput[1]
		}
		thr, why := p.Throughput > passes*lim, p.throughputWhy(p.Throughput)
		bandPast, bandWhy := band > passes*lim, p.throughputWhy(band)
		switch {
		case thr && bandPast && why == bandWhy: // one reason for both, said once
			p.Above = append(p.Above, Above{BoundThroughput, why, "throughput, band",
				fmt.Sprintf("%s, its band to %s: %s; %s", pastBound(p.Throughput, b), format.Sig(band, 4), whyText(why), meansThroughput)})
		case thr:
			p.Above = append(p.Above, Above{BoundThroughput, why, "throughput",
				fmt.Sprintf("%s: %s; %s", pastBound(p.Throughput, b), whyText(why), meansThroughput)})
		}
		if bandPast && (!thr || why != bandWhy) {
			p.Above = append(p.Above, Above{BoundThroughput, bandWhy, "band",
				fmt.Sprintf("its band's high edge: %s: %s; %s", pastBound(band, b), whyText(bandWhy), meansThroughput)})
		}
	}
	if min := b.LatencyMinMs; min > 0 && p.Ops > 0 {
		var below []string
		l := p.Latency
		for _, q := range []struct {
			name string
			v    float64
		}{{"min", l.Min}, {"p05", l.P05}, {"p25", l.P25}, {"p50", l.P50}, {"mean", l.Mean}, {"p75", l.P75}, {"p95", l.P95}, {"p99", l.P99}} {
			if q.v > 0 && passes*q.v < min {
				below = append(below, q.name)
			}
		}
		if len(below) > 0 {
			why, text := WhyRandomSteps, whyText(WhyRandomSteps)
			if p.Burn == "wall" {
				why, text = WhyWallClock, "steps end on the clock (--burn wall), so steps that share a CPU each end on time"
			}
			p.Above = append(p.Above, Above{BoundLatency, why, strings.Join(below, ", "),
				fmt.Sprintf("%s below the latency bound (%s ms): %s; %s", format.JoinAnd(below), format.Ms(min), text, meansLatency)})
		}
	}
}

// What a number past a bound means for the reader, said after its reason
// in one clause: the bound, not the number, is what the design can do.
const (
	meansThroughput = "so take the ceiling, not this figure, as the most the design makes"
	meansLatency    = "so take the bound as the least an operation takes whose steps run their full times"
	meansArrivals   = "so over time it serves no more than arrive"
)

// pastBound says how far v passes b's ThroughputMax, with the digits that
// show it does: "8404000 above its ceiling 8403361 (cpus) by 0.0076 %".
func pastBound(v float64, b *Bounds) string {
	x, lim := format.Apart(v, b.ThroughputMax)
	return fmt.Sprintf("%s above its ceiling %s (%s) by %s %%", x, lim, b.SetBy, format.Sig(100*(v/b.ThroughputMax-1), 2))
}

// throughputWhy is why p's throughput (or band edge) thr may pass its bound.
func (p *Point) throughputWhy(thr float64) string {
	b := p.Bounds
	// A window may count beyond its bound the operations under way on the
	// bounding resource when it opened: its CPUs where the CPUs bind, else
	// one (a resource's capacity is not in its Bounds).
	edgeOps := 1.0
	if b.SetBy == "cpus" {
		edgeOps = float64(max(p.CPUs, 1))
	}
	switch {
	case p.Burn == "wall" && b.SetBy == "cpus":
		return WhyWallClock
	case p.Dur > 0 && (thr-b.ThroughputMax)*p.Dur.Seconds() <= edgeOps+1e-9:
		return WhyWindowEdge
	}
	return WhyRandomSteps
}

func whyText(why string) string {
	switch why {
	case WhyWallClock:
		return "steps end on the clock (--burn wall), and one that waits for a CPU burns less than its time"
	case WhyWindowEdge:
		return "the window's edge: what was under way when it opened ended inside it, counted whole"
	}
	return "the steps' random times came out below their means"
}
