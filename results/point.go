package results

import "time"

// Point is one measured configuration: one mode on one CPU count under one
// load, with what was measured.
type Point struct {
	// Source names where the point was measured, the host name by default;
	// it keeps points from different machines apart once files are merged.
	Source string `json:"source"`
	Mode   string `json:"mode"`
	CPUs   int    `json:"cpus"`
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

	Machines []Machine `json:"machines"`
	Steps    Steps     `json:"steps"`
	Host     Host      `json:"host"`
	Start    time.Time `json:"start"`

	// Hist is the full latency histogram in nanoseconds, HDR V2 compressed
	// and base64 encoded; see Histogram.
	Hist string `json:"hist,omitempty"`
}

// Machine is one shared resource's use over the window.
type Machine struct {
	Name string `json:"name"`
	Uses int64  `json:"uses"`
	// BusyFrac is the fraction of the window the resource was in use.
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
