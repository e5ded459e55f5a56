package results

import (
	"fmt"
	"math"

	"github.com/brewput/brewput/internal/format"
)

// Trust is what a reader must know of a point before believing its numbers.
type Trust struct {
	// Disturbed says other processes took CPU from a measurement (see
	// IsDisturbed): OthersCPUs, and the hypervisor StealCPUs, on the whole
	// machine during its window.
	Disturbed  bool    `json:"disturbed"`
	OthersCPUs float64 `json:"others_cpus,omitempty"`
	StealCPUs  float64 `json:"steal_cpus,omitempty"`
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
}

// Above is a bound of a point's Bounds that it passes, and why.
type Above struct {
	// Bound is BoundThroughput, BoundArrivals or BoundLatency.
	Bound string `json:"bound"`
	// Why is WhyRandomSteps, WhyWallClock or WhyPoisson.
	Why string `json:"why"`
}

// The bounds a point may pass (Bounds.ThroughputMax, an open loop's arrival
// rate, Bounds.LatencyMinMs by the median), and why it may (see trustNotes).
const (
	BoundThroughput = "throughput_max"
	BoundArrivals   = "arrivals"
	BoundLatency    = "latency_min"

	WhyRandomSteps = "random_steps"
	WhyWallClock   = "wall_clock"
	WhyPoisson     = "poisson"
)

// DisturbedCPUs is how many CPUs other processes may take during a measured
// window, beyond the cores the point left free, before the point is disturbed.
const DisturbedCPUs = 0.2

// IsDisturbed reports whether other processes took more than
// DisturbedCPUs from measured point p, or it was marked so.
func (p Point) IsDisturbed() bool {
	spare := float64(max(p.Host.Cores-p.CPUs, 0))
	return p.Disturbed || p.OthersCPUs+p.StealCPUs > spare+DisturbedCPUs
}

// Interference says what took CPU from a disturbed point: "other
// processes took 0.45 CPUs"; "" where p is not disturbed.
func (p Point) Interference() string {
	if !p.IsDisturbed() {
		return ""
	}
	s := fmt.Sprintf("other processes took %.2f CPUs", p.OthersCPUs)
	if p.StealCPUs >= 0.005 {
		s += fmt.Sprintf(" and the hypervisor %.2f", p.StealCPUs)
	}
	return s
}

// SteadyGrowth is how much an open loop's queue may grow or shrink over
// its window, as a fraction of its arrivals and at least SteadyMinGrowth,
// and still be steady.
const (
	SteadyGrowth    = 0.05
	SteadyMinGrowth = 10
)

// LittleTolerance is how far from 1 a closed loop's Little's law check may
// be before its window is not in its steady state.
const LittleTolerance = 0.02

// QueueSteady reports whether an open loop whose queue grew by growth
// (shrank, if negative) over a window of arrived arrivals held steady.
func QueueSteady(growth, arrived int) bool {
	return max(growth, -growth) <= max(SteadyMinGrowth, int(SteadyGrowth*float64(arrived)))
}

// Assess fills p's Trust from its numbers, where p is made or read. A window's
// edges cut an operation or two, so a bound passed by 0.5 % or less is not.
func (p *Point) Assess() {
	p.Disturbed = p.IsDisturbed()
	p.Steady, p.Above = nil, nil
	b := p.Bounds
	if b == nil || !p.IsModel() {
		return
	}
	if b.Little != 0 {
		p.Steady = new(math.Abs(b.Little-1) <= LittleTolerance)
	}
	if p.Rate > 0 && b.Arrived > 0 {
		p.Steady = new(QueueSteady(b.Growth, b.Arrived) && (p.Steady == nil || *p.Steady))
	}
	const edge = 1.005
	if p.Rate > 0 && p.Throughput > edge*p.Rate && b.Arrived > 0 && p.Dur > 0 {
		p.Above = append(p.Above, Above{BoundArrivals, WhyPoisson})
	}
	if lim := b.ThroughputMax; lim > 0 && b.Limit != "arrivals" && p.Throughput > edge*lim {
		why := WhyRandomSteps
		if p.Burn == "wall" && b.Limit == "cpus" {
			why = WhyWallClock
		}
		p.Above = append(p.Above, Above{BoundThroughput, why})
	}
	if b.LatencyMinMs > 0 && p.Ops > 0 && edge*p.Latency.P50 < b.LatencyMinMs {
		p.Above = append(p.Above, Above{BoundLatency, WhyRandomSteps})
	}
}

// trustNotes say p's Trust in words, for a table's notes.
func trustNotes(p Point) []string {
	var n []string
	b := p.Bounds
	if b != nil && p.Steady != nil && !*p.Steady {
		if b.Little != 0 && math.Abs(b.Little-1) > LittleTolerance {
			n = append(n, fmt.Sprintf("not steady: Little's law %.3f", b.Little))
		}
		if p.Rate > 0 && b.Arrived > 0 && !QueueSteady(b.Growth, b.Arrived) {
			n = append(n, fmt.Sprintf("not steady: the queue grew by %d over the window (%.0f %% of its arrivals); its latencies depend on --dur", b.Growth, 100*float64(b.Growth)/float64(b.Arrived)))
		}
	}
	for _, a := range p.Above {
		why := "the steps' random times came out below their means"
		if a.Why == WhyWallClock {
			why = "steps end on the clock (--burn wall), and one that waits for a CPU burns less than its time"
		}
		switch {
		case b == nil:
		case a.Bound == BoundArrivals:
			n = append(n, fmt.Sprintf("above the arrival rate: %.0f a second arrived in this window", float64(b.Arrived)/p.Dur.Seconds()))
		case a.Bound == BoundThroughput:
			n = append(n, fmt.Sprintf("above its bound (%s): %s", FormatBound(b), why))
		case a.Bound == BoundLatency:
			n = append(n, fmt.Sprintf("p50 below the latency bound (%s ms): %s", format.Ms(b.LatencyMinMs), why))
		}
	}
	return n
}
