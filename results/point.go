package results

import (
	"fmt"
	"time"
)

// Point is one configuration, one mode on one CPU count under one load,
// with what was measured on a real machine or predicted by the
// virtual-time model; Source says which and Kind which kind it is.
//
// A point is a common core (what was run, where, when, its throughput,
// latency, CPU use, open-loop fields and structural bounds) and parts
// that only some points have, embedded so that a results file stays
// flat: Shop (the coffee shop's machines and steps, a YAML system's
// resources, a study's meters; nil on a lab's or a Go benchmark's point,
// and shared by copies), Model (how the model predicted it), Lab (a lab's
// variant and metrics) and Bench (a Go benchmark's line, nil elsewhere).
type Point struct {
	// Source is SourceMeasured for a measurement, on the machine Host
	// describes, or SourceModel for a prediction of the virtual-time model.
	// Files from before the model hold the host name (or a label given
	// with --source) instead; Origin reads every kind.
	Source string `json:"source"`
	// Lab is a lab's point's part; its Mode is then "lab/variant".
	Lab
	Mode string `json:"mode"`
	CPUs int    `json:"cpus"`
	// CPUSet is the set of CPUs the process was allowed to run on, e.g. "0-1".
	CPUSet string `json:"cpuset,omitempty"`
	// Par is the number of customers (closed loop) or servers (open loop).
	Par int `json:"par"`
	// Rate is the open-loop arrival rate per second; 0 means closed loop.
	Rate float64 `json:"rate"`
	// MaxQ is the open-loop queue bound; 0 in a closed loop.
	MaxQ    int     `json:"maxq"`
	DurS    float64 `json:"dur_s"`
	WarmupS float64 `json:"warmup_s"`
	// Rep numbers the repetitions of one configuration (run --count), from
	// 1; files without it hold one repetition each.
	Rep int `json:"rep,omitempty"`
	// Harness is "talk" for a point measured or simulated with the talk's
	// harness (--harness talk), empty for brewput's own.
	Harness string `json:"harness,omitempty"`
	// Model is a prediction's part: how the model predicted it.
	Model

	// Ops counts operations completed in the window, Errors those that
	// failed, Drops open-loop arrivals turned away by a full queue.
	Ops    int64 `json:"ops"`
	Errors int64 `json:"errors"`
	Drops  int64 `json:"drops"`

	// Throughput is Ops per second of window, in Unit (e.g. "lattes/s").
	Throughput float64 `json:"throughput"`
	Unit       string  `json:"unit"`

	// CPUUsed is the process's user+system CPU time over wall time, in CPUs;
	// Util is that divided by CPUs, the fraction of the allowed CPUs used.
	CPUUsed float64 `json:"cpu_used"`
	Util    float64 `json:"util"`
	// OthersCPUs is how many CPUs' worth of time other processes used
	// during a measured window, on the whole machine, and StealCPUs how
	// many the hypervisor gave to other machines (steal; older files count
	// it in OthersCPUs): a point they took CPU from beyond the cores it
	// left free is Disturbed (see IsDisturbed). 0 for the model and older
	// files.
	OthersCPUs float64 `json:"others_cpus,omitempty"`
	StealCPUs  float64 `json:"steal_cpus,omitempty"`
	Disturbed  bool    `json:"disturbed,omitempty"`
	// Attempts is how many times a measured point was measured: more
	// than 1 where a disturbed measurement was taken again (the one kept
	// is the least disturbed); 0 in older files.
	Attempts int `json:"attempts,omitempty"`

	// Latency is the distribution of latencies: the whole call in a closed
	// loop, from intended arrival to completion in an open loop, where
	// Service holds the time from start of service to completion.
	Latency Latency  `json:"latency_ms"`
	Service *Latency `json:"service_ms,omitempty"`
	// Bounds are the analytic limits that the model's structure of the
	// configuration sets on the point; the model fills them in its
	// predictions, nil elsewhere.
	Bounds *Bounds `json:"bounds,omitempty"`

	// Bottleneck names what limits the point, from the causal profile of
	// its configuration; see package limits, which fills it.
	Bottleneck *Bottleneck `json:"bottleneck,omitempty"`
	// Waits say where the goroutines waited, from the block profile of a
	// run with --profile, longest first; Profile is the path, without
	// extension, of that point's profile files.
	Waits   []Wait `json:"waits,omitempty"`
	Profile string `json:"profile,omitempty"`

	// Bench is a Go benchmark's part (brewput bench, or go test -bench
	// output read back), nil on every other point: see code.go.
	Bench *Benchmark `json:"bench,omitempty"`
	// Study names the study of a point measured through package study,
	// the user's own code: its Mode is then the study's variant, and its
	// Shop part holds the variant's meters (package meter) as machines,
	// with no steps.
	Study string `json:"study,omitempty"`

	// Shop is the part of a point of the coffee shop, or of a YAML
	// system: its shared resources and its steps; a study's meters.
	*Shop
	Host  Host      `json:"host"`
	Start time.Time `json:"start"`

	// Hist is the full latency histogram in nanoseconds, HDR V2 compressed
	// and base64 encoded; see Histogram.
	Hist string `json:"hist,omitempty"`
}

// Shop is what a point of the coffee shop (measured or predicted) or of a
// YAML system has beside the core: each shared resource's use, and the
// steps' durations.
type Shop struct {
	Machines []Machine `json:"machines"`
	Steps    Steps     `json:"steps"`
}

// empty reports whether s holds nothing, as the shop fields that lab
// points of earlier versions wrote.
func (s *Shop) empty() bool { return len(s.Machines) == 0 && s.Steps == Steps{} }

// Model is how the model predicted a point: its scheduling policy, "fifo"
// or "go", and the seed of its random step jitter. It is zero on
// measurements.
type Model struct {
	Sched string `json:"sched,omitempty"`
	Seed  uint64 `json:"seed,omitempty"`
	// Runtime is the Go runtime a go-policy prediction's scheduler
	// followed where versions differ: "go1.9", or empty for today's.
	Runtime string `json:"runtime,omitempty"`
	// Burn is "wall" where a go-policy prediction's steps ended on the
	// clock, as the harness's default steps do (brewput model --burn), and
	// empty where they burned CPU time (which files without the field did).
	Burn string `json:"burn,omitempty"`
	// Band is a go-policy prediction's range over the uncertainty of the
	// runtime's measured costs, and Calibration the calibration it used;
	// both nil for fifo predictions. See band.go.
	Band        *Band        `json:"band,omitempty"`
	Calibration *Calibration `json:"calibration,omitempty"`
	// BackgroundCPUs is the other processes' demand on the machine that
	// a go-policy prediction simulated (brewput model --others), in bursts
	// of BackgroundBurstMs; 0 for a machine to itself.
	BackgroundCPUs    float64 `json:"background_cpus,omitempty"`
	BackgroundBurstMs float64 `json:"background_burst_ms,omitempty"`
}

// Lab is a lab's point's part (brewput lab): the lab, such as
// "workloads", the variant measured, such as "add/concurrent", and the
// lab's own measures beside throughput. It is zero on other points.
type Lab struct {
	Name    string `json:"lab,omitempty"`
	Variant string `json:"variant,omitempty"`
	// Metrics are the lab's measures by name, with the unit in the name
	// where it has one: "speedup", "allocs_per_op", "render_ms"; each lab
	// names its own as constants of its package.
	Metrics map[Metric]float64 `json:"metrics,omitempty"`
}

// Metric names a lab's measure.
type Metric string

// Kind is what a point is, by the parts it has.
type Kind int

const (
	// KindMeasured is the coffee shop measured on a real machine (package
	// sweep), with its Shop part; points of files from before the model,
	// whose Source is a host name, are measurements too.
	KindMeasured Kind = iota
	// KindModel is a prediction of the virtual-time model, of a shop mode
	// or of a YAML system: Source "model", with its Shop and Model parts.
	KindModel
	// KindLab is a lab's measurement, with its Lab part.
	KindLab
	// KindStudy is a user's own design measured through package study:
	// Study names it, Mode is its variant, and its Shop part holds the
	// variant's meters as machines; a point predicted by the study's model
	// (Source SourceModel) holds the model's resources.
	KindStudy
	// KindBench is a Go benchmark's line (brewput bench, or go test
	// -bench output), with its Bench part and no Shop part.
	KindBench
)

// String names the kind: "measured", "model", "lab", "study" or "bench".
func (k Kind) String() string {
	switch k {
	case KindMeasured:
		return "measured"
	case KindModel:
		return "model"
	case KindLab:
		return "lab"
	case KindStudy:
		return "study"
	case KindBench:
		return "bench"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Kind says what p is: a lab's point, a Go benchmark's, a study's, a
// prediction of the model, or a measurement of the shop.
func (p Point) Kind() Kind {
	switch {
	case p.Lab.Name != "":
		return KindLab
	case p.Bench != nil:
		return KindBench
	case p.Study != "":
		return KindStudy
	case p.Source == SourceModel:
		return KindModel
	}
	return KindMeasured
}

// IsUserCode reports whether p measured the user's own code (a study's
// or a Go benchmark's point): it has no causal profile, and what limits
// it is found only by experiment on real CPUs (a study's why command).
func (p Point) IsUserCode() bool {
	k := p.Kind()
	return k == KindStudy || k == KindBench
}

// Tidy makes p hold the parts of its kind, as ReadJSON and ReadCSV leave
// every point they read: a lab's or a Go benchmark's point drops the
// empty shop fields that earlier versions wrote for it, and any other
// point has a Shop part, if an empty one, so that its Machines and Steps
// can be read.
func (p *Point) Tidy() {
	noShop := p.Kind() == KindLab || p.Kind() == KindBench
	switch {
	case noShop && p.Shop != nil && p.Shop.empty():
		p.Shop = nil
	case !noShop && p.Shop == nil:
		p.Shop = &Shop{}
	}
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
// merged: "model" for a model prediction, the host name for a measurement,
// and for a file from before the model, whose Source holds the host name
// or a --source label, that Source, so that old files read as they did.
// A measurement whose host name is unknown is "measured".
func (p Point) Origin() string {
	if p.Source == SourceMeasured && p.Host.Name != "" {
		return p.Host.Name
	}
	return p.Source
}

// Bounds are the model's analytic limits on a point, from the
// mode's structure and step durations alone; a simulated point lies within
// them. Throughputs are in the point's Unit, latencies in ms. A bound that
// nothing sets (infinite) is 0, as JSON holds no infinity.
type Bounds struct {
	// CPU is the CPU bound: the CPUs divided by the CPU time one latte
	// takes.
	CPU float64 `json:"cpu"`
	// Structural is the bound the shop's structure sets: the capacity of
	// its most-held resource, named by Resource, divided by the time a
	// latte holds it; 0 when the mode shares no resource.
	Structural float64 `json:"structural"`
	// ThroughputMax is the ceiling on throughput: the least of the CPU
	// bound, the structural bound and what the load allows (customers ÷
	// LatencyMin in a closed loop, the arrival rate in an open one).
	ThroughputMax float64 `json:"throughput_max"`
	// LatencyMinMs is one latte's critical path with no waiting.
	LatencyMinMs float64 `json:"latency_min_ms"`
	Resource     string  `json:"resource,omitempty"`
	// Limit names what sets ThroughputMax: "cpus", the Resource,
	// "customers", "servers" or "arrivals".
	Limit string `json:"limit,omitempty"`
	// Little checks Little's law in a closed loop: customers divided by
	// throughput times mean latency, 1 when the simulation is consistent.
	Little float64 `json:"little,omitempty"`
	// Arrived, in an open loop, counts the arrivals inside the window,
	// dropped ones included (Poisson arrivals vary around the rate);
	// Growth is how many more requests were queued or in service at the
	// window's end than at its start, which a steady queue keeps small
	// (see QueueSteady). Both 0 in files from before they were recorded.
	Arrived int `json:"arrived,omitempty"`
	Growth  int `json:"growth,omitempty"`
}

// Machine is one shared resource's use over the window.
type Machine struct {
	Name string `json:"name"`
	// Kind is what the resource is, for a user's metered resource:
	// "mutex", "rwmutex", "chan send" or "chan receive" (package meter);
	// empty for the coffee shop's machines.
	Kind string `json:"kind,omitempty"`
	Uses int64  `json:"uses"`
	// BusyFrac is the fraction of the window the resource was held: from
	// getting it to letting go, including the time its holder waited for
	// a CPU or for a handoff (the name is older than the distinction); 0
	// for a channel, which is never held. WorkingFrac is the part of the
	// window its step was really running, never more than BusyFrac; 0 in
	// files from before it was measured, and for a user's meters, which
	// do not measure it.
	BusyFrac    float64 `json:"busy_frac"`
	WorkingFrac float64 `json:"working_frac,omitempty"`
	// MeanWaitMs is the mean time a caller waited to get it, in ms.
	MeanWaitMs float64 `json:"mean_wait_ms"`
}

// Steps records the shop's step durations, in milliseconds, and the burn
// clock that timed them.
type Steps struct {
	GrindMs  float64 `json:"grind_ms"`
	PressMs  float64 `json:"press_ms"`
	SteamMs  float64 `json:"steam_ms"`
	LatteMs  float64 `json:"latte_ms"`
	JitterMs float64 `json:"jitter_ms"`
	Clock    string  `json:"clock"`
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

// Ms converts a duration to float milliseconds, the unit of every time in a
// results file.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
