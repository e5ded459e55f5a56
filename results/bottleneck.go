package results

// Bottleneck is what limits a point's throughput, as its causal profile
// answers it: the resource whose relief, one at a time, gained the most
// (with those within 1 % of it), or where none gains 1 % the smallest
// combination that does (Combined).
type Bottleneck struct {
	// Resource is the resource named, or those named together joined by
	// "+" ("grinder+espresso+steamer"), each one of: "cpus", "customers" (or
	// "servers"), "kitchen", a machine's kind ("grinder" for grinder#1 and
	// grinder#2, used as a pool), a YAML system's resource or stage, a
	// channel ("channel:espresso", the one into that stage), a step no
	// resource guards ("step:combine"), "arrivals" for an open loop that
	// keeps up, "none" where nothing tried helps, or "unknown" where the
	// model cannot simulate the configuration.
	Resource string `json:"resource"`
	// Resources are every resource named, together: those whose relief
	// gains within 1 % of the best, or those the combined change relieves.
	Resources []string `json:"resources,omitempty"`
	// Named says Resources for people: "the grinder, the espresso
	// machine and the steamer".
	Named string `json:"named,omitempty"`
	// Utilization is the fraction of the time the named resource (the
	// most held of those named) was held, Working the part its step ran.
	Utilization float64 `json:"utilization"`
	Working     float64 `json:"working,omitempty"`
	// Bound is the throughput the structure allows the named resources
	// (the tightest), in the point's Unit; 0 for none. Gain is the best
	// relief's (or Combined's) relative gain.
	Bound float64 `json:"bound"`
	Gain  float64 `json:"gain,omitempty"`
	// Recommend lists the experiments that gained more than 1 %.
	Recommend []string    `json:"recommend,omitempty"`
	Combined  *Experiment `json:"combined,omitempty"`
	// Profile is every experiment, best first.
	Profile []Experiment `json:"profile,omitempty"`
	// Model says what the profile was simulated with: "model (fifo)", or
	// the go policy and the calibration it used.
	Model string `json:"model,omitempty"`
	// Measured, for a measured point, compares it with the model's
	// prediction of the same configuration.
	Measured string `json:"measured,omitempty"`
	// Text says it in words, with the figures of the experiments.
	Text string `json:"text"`
}

// Experiment is one change a causal profile tried, and what it gave.
type Experiment struct {
	// Change says it in words: "grinding 10 % faster", "another grinder".
	Change string `json:"change"`
	// Kind is what sort of relief it is: "shorter", "copy", "split",
	// "cpu", "cpu+customer", "customers", "buffer", or "combined".
	Kind string `json:"kind"`
	// Resources are what it relieves, the main one first.
	Resources  []string `json:"resources"`
	Throughput float64  `json:"throughput"`
	P50Ms      float64  `json:"p50_ms"`
	P99Ms      float64  `json:"p99_ms"`
	// Gain is the relative change in throughput (0.1 is 10 % more);
	// P50Change and P99Change the relative change in those latencies
	// (-0.1 is 10 % less).
	Gain      float64 `json:"gain"`
	P50Change float64 `json:"p50_change"`
	P99Change float64 `json:"p99_change"`
	// WindowS is the shorter window, in seconds, a probe was simulated
	// over (its latency changes then 0: they would not compare); 0 for the
	// point's own.
	WindowS float64 `json:"window_s,omitempty"`
}
