package results

import (
	"fmt"
	"math"
	"time"
)

// Point is one configuration (its Spec) with what was measured on a real
// machine or predicted by the virtual-time model (Source): a common core
// of numbers, its Trust, and exactly one part for its Kind — Shop, Lab,
// Study or Bench — the others nil. A results file writes the kind out.
type Point struct {
	Kind Kind
	// Source is SourceMeasured, on the machine Host describes, or
	// SourceModel. Files from before the model hold the host name or a
	// --source label instead: measurements too (see Origin).
	Source string
	Spec
	// Rep numbers the repetitions of one configuration (run --count),
	// from 1; 0 where there is one.
	Rep int
	// CPUSet is the set of CPUs the process was allowed to run on, "0-1".
	CPUSet string

	// Ops counts operations completed in the window, Errors those that
	// failed, Drops open-loop arrivals turned away by a full queue.
	Ops, Errors, Drops int64
	// Throughput is Ops per second of window, in Unit ("lattes/s").
	Throughput float64
	Unit       string
	// CPUUsed is the process's CPU time over wall time, in CPUs; Util is
	// that over CPUs, the fraction of the allowed CPUs used.
	CPUUsed, Util float64
	// Latency is the whole call in a closed loop, and from intended
	// arrival to completion in an open loop, where Service holds the time
	// from start of service; Hist is the full histogram (see Histogram).
	Latency Latency
	Service *Latency
	Hist    string
	Host    Host
	Start   time.Time

	// Bounds are the model's analytic limits on the point, and Band a
	// go-policy prediction's range over its costs' uncertainty; nil on
	// measurements.
	Bounds *Bounds
	Band   *Band
	// Bottleneck names what limits the point (package limits fills it).
	Bottleneck *Bottleneck
	// Waits say where the goroutines waited, from the block profile of a
	// run with --profile, longest first; Profile is the path, without
	// extension, of its profile files.
	Waits   []Wait
	Profile string

	// Trust is what a reader must know before believing the numbers.
	Trust

	Shop  *Shop
	Lab   *Lab
	Study *Study
	Bench *Benchmark
}

// Kind is what a point is, and which part it has.
type Kind int

const (
	// KindShop is the coffee shop, or a YAML system, measured or predicted
	// by the model; its part is Shop.
	KindShop Kind = iota
	// KindLab is a lab's measurement (brewput lab); its Mode is
	// "lab/variant".
	KindLab
	// KindStudy is a user's design measured (or predicted) through
	// package study; its Mode is the study's variant.
	KindStudy
	// KindBench is a Go benchmark's line (brewput bench, or go test
	// -bench output); its Mode is the name without "Benchmark".
	KindBench
)

// kindNames are the kinds as files write them, in Kind's order.
func kindNames() []string { return []string{"shop", "lab", "study", "bench"} }

// String names the kind as files write it: "shop", "lab", "study", "bench".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames()) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames()[k]
}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames() {
		if s == n {
			return Kind(i), true
		}
	}
	return 0, false
}

// Shop is the part of a point of the coffee shop or of a YAML system:
// each shared resource's use, and the steps' durations (zero for a YAML
// system).
type Shop struct {
	Machines []Machine `json:"machines"`
	Steps    Steps     `json:"steps"`
}

// Steps are the shop's step durations and the burn clock that timed them
// (coffee.Steps, as a file records them).
type Steps struct {
	Grind, Press, Steam, Combine time.Duration
	Jitter                       time.Duration
	Clock                        string
}

// DefaultSteps are brewput's defaults (coffee.DefaultSteps and the run
// flags'): every step 1 ms, no jitter, the wall clock.
func DefaultSteps() Steps {
	return Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}
}

// Lab is a lab's point's part: the lab, such as "workloads", the variant
// measured, such as "add/concurrent", and the lab's own measures.
type Lab struct {
	Name    string `json:"name"`
	Variant string `json:"variant"`
	// Metrics are the lab's measures by name, with the unit in the name
	// where it has one: "speedup", "allocs_per_op", "render_ms".
	Metrics map[Metric]float64 `json:"metrics,omitempty"`
}

// Metric names a lab's measure.
type Metric string

// Study is a study's point's part: the study's name and the variant's
// meters (package meter), as measured; a prediction's are the model's
// resources.
type Study struct {
	Name   string    `json:"name"`
	Meters []Machine `json:"meters"`
}

// AsStudy makes p, measured or simulated with its meters as a shop's
// machines, a point of the study name.
func (p *Point) AsStudy(name string) {
	s := &Study{Name: name, Meters: []Machine{}}
	if p.Shop != nil {
		s.Meters = p.Shop.Machines
	}
	p.Kind, p.Study, p.Shop = KindStudy, s, nil
}

// Machines are the shared resources a point metered: a shop's machines
// or a study's meters; none for a lab's or a Go benchmark's point.
func (p Point) Machines() []Machine {
	switch {
	case p.Shop != nil:
		return p.Shop.Machines
	case p.Study != nil:
		return p.Study.Meters
	}
	return nil
}

// Steps are a shop point's steps; zero for any other.
func (p Point) Steps() Steps {
	if p.Shop == nil {
		return Steps{}
	}
	return p.Shop.Steps
}

// StudyName is the study of a study's point, "" for any other.
func (p Point) StudyName() string {
	if p.Study == nil {
		return ""
	}
	return p.Study.Name
}

// LabName, Variant and Metrics are a lab's point's; zero for any other.
func (p Point) LabName() string             { return p.lab().Name }
func (p Point) Variant() string             { return p.lab().Variant }
func (p Point) Metrics() map[Metric]float64 { return p.lab().Metrics }

func (p Point) lab() Lab {
	if p.Lab == nil {
		return Lab{}
	}
	return *p.Lab
}

// IsUserCode reports whether p measured the user's own code (a study's
// or a Go benchmark's point): it has no causal profile, and what limits
// it is found only by experiment on real CPUs (a study's why command).
func (p Point) IsUserCode() bool { return p.Kind == KindStudy || p.Kind == KindBench }

// checkParts reports a point whose parts are not its kind's: another
// kind's part set beside it.
func (p Point) checkParts() error {
	for k, set := range [...]bool{p.Shop != nil, p.Lab != nil, p.Study != nil, p.Bench != nil} {
		if set && Kind(k) != p.Kind {
			return fmt.Errorf("%s: a %s point with a %s part", p.label(), p.Kind, Kind(k))
		}
	}
	return nil
}

// The values of Point.Source other than the host names of older files.
const (
	SourceMeasured = "measured"
	SourceModel    = "model"
)

// IsModel reports whether p is a prediction of the model rather than a
// measurement.
func (p Point) IsModel() bool { return p.Source == SourceModel }

// Origin names where p comes from, to tell points apart once files are
// merged: "model" for a prediction, the host name for a measurement (or
// "measured" where it is unknown), and for a file from before the model,
// whose Source holds the host name or a --source label, that Source.
func (p Point) Origin() string {
	if p.Source == SourceMeasured && p.Host.Name != "" {
		return p.Host.Name
	}
	return p.Source
}

// Bounds are the model's analytic limits on a point, from the mode's
// structure and step durations alone. Throughputs are in the point's
// Unit, latencies in ms; a bound that nothing sets (infinite) is 0.
type Bounds struct {
	// CPU is the CPUs divided by the CPU time one latte takes.
	CPU float64 `json:"cpu"`
	// Structural is the capacity of the most-held resource, Resource,
	// divided by the time a latte holds it; 0 when none is shared.
	Structural float64 `json:"structural"`
	// ThroughputMax is the least of the CPU bound, the structural bound
	// and what the load allows (customers ÷ LatencyMin in a closed loop,
	// the arrival rate in an open one); Limit names which: "cpus", the
	// Resource, "customers", "servers" or "arrivals".
	ThroughputMax float64 `json:"throughput_max"`
	// LatencyMinMs is one latte's critical path with no waiting.
	LatencyMinMs float64 `json:"latency_min_ms"`
	Resource     string  `json:"resource,omitempty"`
	Limit        string  `json:"limit,omitempty"`
	// Little checks Little's law in a closed loop: customers over
	// throughput times mean latency, 1 when the simulation is consistent.
	Little float64 `json:"little,omitempty"`
	// Arrived counts an open loop's arrivals in the window, dropped ones
	// included; Growth is how many more requests were queued or in
	// service at its end than at its start (see QueueSteady).
	Arrived int `json:"arrived,omitempty"`
	Growth  int `json:"growth,omitempty"`
}

// Machine is one shared resource's use over the window.
type Machine struct {
	Name string `json:"name"`
	// Kind is a user's meter's: "mutex", "rwmutex", "chan send" or "chan
	// receive" (package meter); empty for the shop's machines.
	Kind string `json:"kind,omitempty"`
	Uses int64  `json:"uses"`
	// BusyFrac is the fraction of the window the resource was held, from
	// getting it to letting go (0 for a channel, never held); WorkingFrac
	// the part its step was really running, 0 where not measured.
	BusyFrac    float64 `json:"busy_frac"`
	WorkingFrac float64 `json:"working_frac,omitempty"`
	// MeanWaitMs is the mean time a caller waited to get it, in ms.
	MeanWaitMs float64 `json:"mean_wait_ms"`
}

// Host describes the machine a point was measured on.
type Host struct {
	Name      string `json:"name"`
	CPUModel  string `json:"cpu_model"`
	Cores     int    `json:"cores"`
	GoVersion string `json:"go_version"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
}

// Ms converts a duration to float milliseconds, the unit of latencies in
// a results file.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FromMs converts float milliseconds to a duration, to the nearest
// nanosecond.
func FromMs(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}
