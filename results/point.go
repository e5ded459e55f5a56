package results

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
)

// Point is one configuration (its Spec) with what was measured on a real
// machine or predicted by the model (Source): a common core of numbers, its
// Trust, and exactly one part for its Kind — Shop, Lab, Study or Bench.
type Point struct {
	Kind Kind
	// Source is SourceMeasured (on Host) or SourceModel; older files hold
	// a host name or a --source label (see Origin).
	Source string
	Spec
	// Rep numbers the repetitions of one configuration from 1; 0 for one.
	Rep int
	// CPUSet is the set of CPUs the process was allowed to run on, "0-1".
	CPUSet string

	// Ops counts operations completed in the window.
	Ops int64
	// Throughput is Ops per second of window, in Unit ("lattes/s").
	Throughput float64
	Unit       string
	// Metrics are the point's other numbers, absent where not measured:
	// those of Columns, a lab's own ("speedup") and a Go benchmark's
	// ("B/op"); set them with Set.
	Metrics map[Metric]float64
	// Latency is the whole call in a closed loop, and from intended
	// arrival to completion in an open loop, where Service holds the time
	// from start of service; Hist is the full histogram (see Histogram).
	Latency Latency
	Service *Latency
	Hist    string
	Host    Host
	Start   time.Time

	// Bounds are the model's analytic limits, Band a go-policy
	// prediction's range over its costs; nil on measurements.
	Bounds     *Bounds
	Band       *Band
	Bottleneck *Bottleneck
	// Waits say where the goroutines waited (run --profile), longest
	// first; Profile is the path of its profile files, no extension.
	Waits   []Wait
	Profile string

	Trust

	Shop  *Shop
	Lab   *Lab
	Study *Study
	Bench *Benchmark
}

// Kind is what a point is, and which part it has.
type Kind int

// The kinds: the coffee shop or a YAML system; a lab's measurement (Mode
// "lab/variant"); a user's design through package study (Mode its variant);
// a Go benchmark's line (Mode its name without "Benchmark").
const (
	KindShop Kind = iota
	KindLab
	KindStudy
	KindBench
)

// kindNames are the kinds as files write them, in Kind's order.
func kindNames() []string { return []string{"shop", "lab", "study", "bench"} }

// String names the kind as files write it.
func (k Kind) String() string { return nameOf(kindNames(), k, "Kind") }

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, bool) { return parseName[Kind](kindNames(), s) }

// nameOf is v's name among names, in their order: "Kind(7)" for none.
func nameOf[T ~int](names []string, v T, typ string) string {
	if v < 0 || int(v) >= len(names) {
		return fmt.Sprintf("%s(%d)", typ, int(v))
	}
	return names[v]
}

// parseName reads a name among names, in their order.
func parseName[T ~int](names []string, s string) (T, bool) {
	i := slices.Index(names, s)
	return T(max(i, 0)), i >= 0
}

// Shop is the part of a point of the coffee shop or of a YAML system
// (whose steps are zero).
type Shop struct {
	Machines []Machine `json:"machines"`
	Steps    Steps     `json:"steps"`
}

// Steps are the shop's step durations and the burn clock that timed them.
type Steps struct {
	Grind, Press, Steam, Combine time.Duration
	Jitter                       time.Duration
	Clock                        string
}

// DefaultSteps are brewput's defaults: steps of 1 ms, no jitter, the wall clock.
func DefaultSteps() Steps {
	return Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}
}

// Lab is a lab's point's part: "workloads", variant "add/concurrent".
type Lab struct {
	Name, Variant string
}

// Study is a study's point's part: its name and the variant's meters
// (a prediction's: the model's resources).
type Study struct {
	Name   string    `json:"name"`
	Meters []Machine `json:"meters"`
}

// AsStudy makes p, its meters as a shop's machines, a point of study name.
func (p *Point) AsStudy(name string) {
	s := &Study{Name: name, Meters: []Machine{}}
	if p.Shop != nil {
		s.Meters = p.Shop.Machines
	}
	p.Kind, p.Study, p.Shop = KindStudy, s, nil
}

// Machines are a shop's machines, a study's meters or a benchmark's
// watched lock sites; none for others.
func (p Point) Machines() []Machine {
	switch {
	case p.Shop != nil:
		return p.Shop.Machines
	case p.Study != nil:
		return p.Study.Meters
	case p.Bench != nil:
		return p.Bench.Locks
	}
	return nil
}

// Steps are a shop point's steps; zero for any other.
func (p Point) Steps() Steps { return deref(p.Shop).Steps }

// StudyName is the study of a study's point, "" for any other.
func (p Point) StudyName() string { return deref(p.Study).Name }

// LabName and Variant are a lab's point's; "" for any other.
func (p Point) LabName() string { return deref(p.Lab).Name }
func (p Point) Variant() string { return deref(p.Lab).Variant }

// IsUserCode reports whether p measured the user's own code (a study or
// a Go benchmark), which has no causal profile.
func (p Point) IsUserCode() bool { return p.Kind == KindStudy || p.Kind == KindBench }

// checkParts reports another kind's part set on p.
func (p Point) checkParts() error {
	for k, set := range [...]bool{p.Shop != nil, p.Lab != nil, p.Study != nil, p.Bench != nil} {
		if set && Kind(k) != p.Kind {
			return fmt.Errorf("%s: a %s point with a %s part", p.label(), p.Kind, Kind(k))
		}
	}
	return nil
}

// The values of Point.Source.
const (
	SourceMeasured = "measured"
	SourceModel    = "model"
)

// IsModel reports whether p is the model's prediction.
func (p Point) IsModel() bool { return p.Source == SourceModel }

// Origin names where p comes from, to tell merged files' points apart:
// "model", the host name ("measured" where unknown), or an older Source.
func (p Point) Origin() string {
	if p.Source == SourceMeasured && p.Host.Name != "" {
		return p.Host.Name
	}
	return p.Source
}

// Bounds are the model's analytic limits on a point, from its structure
// and steps alone, in the point's Unit and ms; 0 where nothing sets one.
type Bounds struct {
	// CPU is the CPUs divided by the CPU time one latte takes.
	CPU float64 `json:"cpu"`
	// Structural is the capacity of the most-held resource, Resource,
	// divided by the time a latte holds it; 0 when none is shared.
	Structural float64 `json:"structural"`
	// ThroughputMax is the least of the CPU, structural and load bounds, the
	// point's ceiling (not its limit, which Bottleneck names); SetBy names
	// which: "cpus", the Resource, "customers", "servers" or "arrivals".
	ThroughputMax float64 `json:"throughput_max"`
	// LatencyMinMs is one latte's critical path with no waiting.
	LatencyMinMs float64 `json:"latency_min_ms"`
	Resource     string  `json:"resource,omitempty"`
	SetBy        string  `json:"set_by,omitempty"`
	// Little is customers over throughput times mean latency in a closed
	// loop: 1 where the simulation is steady.
	Little float64 `json:"little,omitempty"`
	// Arrived counts an open loop's arrivals in the window, drops too;
	// Growth is how many more were in it at its end (see QueueSteady).
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
	// BusyFrac is the fraction of the window it was held (0 for a
	// channel), WorkingFrac the part its step ran; 0 where not measured.
	BusyFrac    float64 `json:"busy_frac"`
	WorkingFrac float64 `json:"working_frac,omitempty"`
	// MeanWaitMs is the mean time a caller waited to get it, in ms.
	MeanWaitMs float64 `json:"mean_wait_ms"`
	// Reads is how many of its Uses were an RWMutex's readers', where
	// told apart (a watched lock's).
	Reads int64 `json:"reads,omitempty"`
	// Goroutines is how many distinct goroutines took it (or its group's
	// locks), Takers how many took each lock on average; 0 where not known.
	Goroutines int     `json:"goroutines,omitempty"`
	Takers     float64 `json:"takers,omitempty"`
	// Follows is how many of a watched lock's sampled holds were followed
	// by another hold seen to end, Handoffs how many of those by another
	// goroutine's (see HandoffShare); both 0 where not known.
	Follows  int64 `json:"follows,omitempty"`
	Handoffs int64 `json:"handoffs,omitempty"`
	// FreeHoldNs is a watched lock's mean hold taken free (an RWMutex's: its
	// writers'), AfterWaitHoldNs after a wait, from another goroutine, over
	// AfterWaitTimed holds, over its group's every lock; 0 where not known.
	FreeHoldNs      float64 `json:"free_hold_ns,omitempty"`
	AfterWaitHoldNs float64 `json:"after_wait_hold_ns,omitempty"`
	AfterWaitTimed  int64   `json:"after_wait_timed,omitempty"`
	// Estimated says how many locks its group ("name#1" … "name#k") has
	// is an estimate: a watched site's locks are told apart by a sketch.
	Estimated bool `json:"estimated,omitempty"`
	// Via names the wrappers a watched lock's sites lock through, where
	// they lock through one ("(*mutexWrap).Lock at logger.go:70", logrus's):
	// Name is the wrappers' callers.
	Via string `json:"via,omitempty"`
}

// HandoffShare is the share of m's holds whose next hold was another
// goroutine's, and whether it is known.
func (m Machine) HandoffShare() (float64, bool) {
	if m.Follows <= 0 {
		return 0, false
	}
	return float64(m.Handoffs) / float64(m.Follows), true
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

// Ms converts a duration to float milliseconds, as files hold latencies.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FromMs converts float milliseconds to the nearest duration.
func FromMs(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}

// SplitBench separates Go benchmarks' points from the others, in order.
func SplitBench(points []Point) (others, benches []Point) {
	for _, p := range points {
		if p.Kind == KindBench {
			benches = append(benches, p)
		} else {
			others = append(others, p)
		}
	}
	return others, benches
}

// SplitLabs separates the labs' points from the others, the labs by name
// in the order they first appear.
func SplitLabs(points []Point) (others []Point, labs []string, byLab map[string][]Point) {
	for _, p := range points {
		if p.Kind != KindLab {
			others = append(others, p)
		}
	}
	labs, byLab = collect.GroupBy(points, func(p Point) (string, bool) { return p.LabName(), p.Kind == KindLab })
	return others, labs, byLab
}

// OriginLabel is Origin for people (see SourceLabel).
func OriginLabel(p Point) string { return SourceLabel(p.Origin(), p.IsModel(), p.Sched) }

// SourceLabel names an origin for people: a prediction's with its policy,
// "model (fifo)"; "(no source)" for none.
func SourceLabel(origin string, model bool, sched string) string {
	switch {
	case model && sched != "":
		return SourceModel + " (" + sched + ")"
	case origin == "":
		return "(no source)"
	}
	return origin
}
