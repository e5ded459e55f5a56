package results

// Bottleneck is what limits a point's throughput, as its causal profile
// answers it: the model re-simulated the point's configuration with each
// resource relieved a little, one at a time (a step 10 % shorter, one more
// machine, a lock held for less, one more CPU, more customers, more
// buffer), and the bottleneck is the resource whose relief gained the
// most, with those within 1 % of it named together. Where no single relief
// gains more than 1 %, Combined is the smallest combination tried that
// does. No threshold on utilization decides it.
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
	// Utilization is the fraction of the time the named resource was
	// held (for a pool, the mean over its copies; for the CPUs, the CPU
	// time over the CPUs' time); Working is the part of the time its
	// step was really running. Both 0 where they do not apply. Of
	// resources named together, the most held one's.
	Utilization float64 `json:"utilization"`
	Working     float64 `json:"working,omitempty"`
	// Bound is the throughput the model's structure allows for the named
	// resource (the tightest of those named together), in the point's
	// Unit; 0 when there is none.
	Bound float64 `json:"bound"`
	// Gain is the relative throughput gain of the best relief (of the
	// combined change, where no single one gains more than 1 %).
	Gain float64 `json:"gain,omitempty"`
	// Recommend lists the changes the words recommend, each an
	// experiment of Profile (or Combined) that gained more than 1 %.
	Recommend []string `json:"recommend,omitempty"`
	// Combined is the smallest combination of reliefs found that gains
	// more than 1 %, where no single relief does; nil otherwise.
	Combined *Experiment `json:"combined,omitempty"`
	// Profile is every experiment, best first.
	Profile []Experiment `json:"profile,omitempty"`
	// Model says what the profile was simulated with: "model (fifo)", or
	// the go policy and the calibration it used.
	Model string `json:"model,omitempty"`
	// Measured, for a measured point, compares it with the model's
	// prediction of the same configuration: that they agree, that they
	// disagree and by how much, or that other processes disturbed it.
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
	// WindowS, where the experiment was simulated over a shorter window
	// than its point (a probe, long enough for its gain's precision), is
	// that window in seconds: its latencies are over it, and P50Change and
	// P99Change are 0, since a model's latencies may depend on the window
	// and the two would not compare like for like. 0 where the windows
	// are the same.
	WindowS float64 `json:"window_s,omitempty"`
}
