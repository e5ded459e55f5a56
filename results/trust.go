package results

import (
	"math"
	"strings"
	"time"
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
// known to differ, named for the point it concerns; report/text says it.
type Caveat struct {
	// Kind is CaveatShortHold, CaveatSharedLine or CaveatLockstep.
	Kind string `json:"kind"`
	// Resource is the lock or word it concerns.
	Resource string `json:"resource,omitempty"`
	// Under is how short a short hold is: the lock was held less a use.
	Under time.Duration `json:"under_ns,omitempty"`
	// Idle of Customers finished nothing in a lockstep window, the others
	// Each on average.
	Idle      int `json:"idle,omitempty"`
	Customers int `json:"customers,omitempty"`
	Each      int `json:"each,omitempty"`
}

// CaveatShortHold: a shared lock held briefly and contended (busy, or its
// word waited for, much of the time) on more than one CPU: its prediction
// is rough.
const CaveatShortHold = "short_hold"

// CaveatSharedLine: a word many cores write (an atomic counter, a
// read-write lock's reader count) whose cache line the CPUs waited for
// much of their time: its prediction is rough.
const CaveatSharedLine = "shared_line"

// CaveatLockstep: some customers of a closed loop finished nothing in the
// window while the others finished many, which the model's exact times can
// make and machines do not: the point is not to be trusted.
const CaveatLockstep = "lockstep"

// Untrusted says the figure is not to be trusted (lockstep), where the
// other caveats make it rough.
func (c Caveat) Untrusted() bool { return c.Kind == CaveatLockstep }

// Above is a bound of a point's Bounds (or an open loop's arrival rate)
// that a number of the point passes, and why it may; report/text says it
// with the point's numbers.
type Above struct {
	// Bound is BoundThroughput, BoundArrivals or BoundLatency.
	Bound string `json:"bound"`
	// Why is WhyRandomSteps, WhyWallClock, WhyPoisson, WhyWindowEdge or
	// WhyBacklog.
	Why string `json:"why"`
	// Of names the numbers past the bound: "throughput", "band" (its high
	// edge), or the latencies below the least ("min, p05").
	Of string `json:"of,omitempty"`
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
		p.Above = append(p.Above, Above{BoundArrivals, WhyBacklog, "throughput"})
	}
	if b == nil || !p.IsModel() {
		return
	}
	if p.Rate > 0 && p.Throughput > passes*p.Rate && b.Arrived > 0 && p.Dur > 0 {
		p.Above = append(p.Above, Above{BoundArrivals, WhyPoisson, "throughput"})
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
			p.Above = append(p.Above, Above{BoundThroughput, why, "throughput, band"})
		case thr:
			p.Above = append(p.Above, Above{BoundThroughput, why, "throughput"})
		}
		if bandPast && (!thr || why != bandWhy) {
			p.Above = append(p.Above, Above{BoundThroughput, bandWhy, "band"})
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
			why := WhyRandomSteps
			if p.Burn == "wall" {
				why = WhyWallClock
			}
			p.Above = append(p.Above, Above{BoundLatency, why, strings.Join(below, ", ")})
		}
	}
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
