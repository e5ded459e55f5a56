package results

import "time"

// Point is one configuration, one mode on one CPU count under one load,
// with what was measured on a real machine or predicted by the
// virtual-time model; Source says which.
type Point struct {
	// Source is SourceMeasured for a measurement, on the machine Host
	// describes, or SourceModel for a prediction of the virtual-time model.
	// Files from before the model hold the host name (or a label given
	// with --source) instead; Origin reads every kind.
	Source string `json:"source"`
	// Lab and Variant name a lab's point (brewput lab): the lab, such as
	// "workloads", and the variant measured, such as "add/concurrent"; Mode
	// is then "lab/variant". Both are empty for the coffee shop.
	Lab     string `json:"lab,omitempty"`
	Variant string `json:"variant,omitempty"`
	Mode    string `json:"mode"`
	CPUs    int    `json:"cpus"`
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
	// Sched is the model's scheduling policy, "fifo" or "go", and Seed
	// the seed of its random step jitter; both are empty for measurements.
	Sched string `json:"sched,omitempty"`
	Seed  uint64 `json:"seed,omitempty"`

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

	// Latency is the distribution of latencies: the whole call in a closed
	// loop, from intended arrival to completion in an open loop, where
	// Service holds the time from start of service to completion.
	Latency Latency  `json:"latency_ms"`
	Service *Latency `json:"service_ms,omitempty"`
	// Bounds are the model's analytic limits on the point; nil for
	// measurements.
	Bounds *Bounds `json:"bounds,omitempty"`

	// Bottleneck names what limits the point, from its own counters; see
	// package analysis, which fills it.
	Bottleneck *Bottleneck `json:"bottleneck,omitempty"`
	// Waits say where the goroutines waited, from the block profile of a
	// run with --profile, longest first; Profile is the path, without
	// extension, of that point's profile files.
	Waits   []Wait `json:"waits,omitempty"`
	Profile string `json:"profile,omitempty"`

	// Metrics are a lab's own measures beside throughput, by name with
	// the unit in the name where it has one: "speedup", "allocs_per_op",
	// "bytes_per_op", "bound_lines_per_s", "render_ms".
	Metrics map[string]float64 `json:"metrics,omitempty"`

	// Bench is a Go benchmark's part (brewput bench, or go test -bench
	// output read back), and Study names the study of a point measured
	// through package study, whose variant is Mode: see code.go.
	Bench *Benchmark `json:"bench,omitempty"`
	Study string     `json:"study,omitempty"`

	Machines []Machine `json:"machines"`
	Steps    Steps     `json:"steps"`
	Host     Host      `json:"host"`
	Start    time.Time `json:"start"`

	// Hist is the full latency histogram in nanoseconds, HDR V2 compressed
	// and base64 encoded; see Histogram.
	Hist string `json:"hist,omitempty"`
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
}

// Machine is one shared resource's use over the window.
type Machine struct {
	Name string `json:"name"`
	// Kind is what the resource is, for a user's metered resource:
	// "mutex", "rwmutex", "chan send" or "chan receive" (package meter);
	// empty for the coffee shop's machines.
	Kind string `json:"kind,omitempty"`
	Uses int64  `json:"uses"`
	// BusyFrac is the fraction of the window the resource was in use
	// (a lock: held; 0 for a channel, which is never held).
	BusyFrac float64 `json:"busy_frac"`
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
