package results

import "strings"

// Bottleneck is what limits a point's throughput, as its causal profile
// answers it: the resource whose relief gained the most, or the smallest
// combination that gains 1 % (Combined).
type Bottleneck struct {
	// Resource is those named joined by "+", each "cpus", "customers",
	// "servers", "kitchen", a machine's kind ("grinder"), a YAML system's
	// resource, "channel:espresso", "step:combine", "arrivals"; or "none"
	// where nothing helps, "unknown" where the model cannot simulate it.
	Resource string `json:"resource"`
	// Resources are those whose relief gains within 1 % of the best, or
	// those the combined change relieves.
	Resources []string `json:"resources,omitempty"`
	// Named says Resources for people: "the grinder, the espresso
	// machine and the steamer".
	Named string `json:"named,omitempty"`
	// Utilization is the fraction of the time the most held of them was
	// held, Working the part its step ran.
	Utilization float64 `json:"utilization"`
	Working     float64 `json:"working,omitempty"`
	// Bound is the throughput they allow, 0 for none; Gain the best
	// relief's relative gain.
	Bound float64 `json:"bound"`
	Gain  float64 `json:"gain,omitempty"`
	// Recommend lists the experiments that gained more than 1 %.
	Recommend []string    `json:"recommend,omitempty"`
	Combined  *Experiment `json:"combined,omitempty"`
	// Experiments are every relief tried, best first: the causal profile.
	Experiments []Experiment `json:"profile,omitempty"`
	// Model says what the profile was simulated with.
	Model string `json:"model,omitempty"`
	// Measured compares a measured point with the model's prediction.
	Measured string `json:"measured,omitempty"`
	// Text says it in words, with the figures of the experiments.
	Text string `json:"text"`
	// ModelThroughput is the model's throughput for a measured point, for
	// report/text to compare with it where Compare is set; not in the file.
	ModelThroughput float64 `json:"-"`
	Compare         bool    `json:"-"`
}

// Words names what limits the point for people, as every surface says it:
// Named ("… together" for several), "nothing tried" or NoCausalProfile.
func (b *Bottleneck) Words() string {
	switch {
	case b == nil || b.Resource == "" || b.Resource == "unknown":
		return NoCausalProfile
	case b.Resource == "none":
		return "nothing tried"
	}
	named := b.Named
	if named == "" { // a file written before Named
		rs := b.Resources
		if len(rs) == 0 {
			rs = []string{b.Resource}
		}
		named = strings.Join(rs, ", ")
	}
	if len(b.Resources) > 1 {
		named += " together"
	}
	return named
}

// NoCausalProfile is what Words says of a point without a causal profile.
const NoCausalProfile = "no causal profile"

// Experiment is one change a causal profile tried, and what it gave.
type Experiment struct {
	// Change says it in words: "grinding 10 % faster", "another grinder".
	Change string `json:"change"`
	// Kind is "shorter", "copy", "split", "cpu", "cpu+customer",
	// "customers", "buffer", or "combined".
	Kind string `json:"kind"`
	// Resources are what it relieves, the main one first.
	Resources  []string `json:"resources"`
	Throughput float64  `json:"throughput"`
	P50Ms      float64  `json:"p50_ms"`
	P99Ms      float64  `json:"p99_ms"`
	// Gain, P50Change and P99Change are relative changes (0.1 is 10 % more).
	Gain      float64 `json:"gain"`
	P50Change float64 `json:"p50_change"`
	P99Change float64 `json:"p99_change"`
	// WindowS is a probe's shorter window in seconds, its latency changes
	// then 0; 0 for the point's own.
	WindowS float64 `json:"window_s,omitempty"`
}

// Named is what e relieves as a bottleneck names it: a step made shorter
// names its step's resource alone, not the CPU time that saves too.
func (e Experiment) Named() []string {
	if e.Kind == "shorter" && len(e.Resources) > 1 {
		return e.Resources[:1]
	}
	return e.Resources
}
