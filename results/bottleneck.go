package results

// Bottleneck is what limits a point's throughput, as its causal profile
// answers it: the resource whose relief gained the most, or the smallest
// combination that gains 1 % (Combined). Its facts are said by
// report/text (LimitName, BottleneckText).
type Bottleneck struct {
	// Resource is those named joined by "+", each "cpus", "customers",
	// "servers", "kitchen", a machine's kind ("grinder"), a YAML system's
	// resource, "channel:espresso", "step:combine", "arrivals"; or "none"
	// where nothing helps, "unknown" where the model cannot simulate it.
	Resource string `json:"resource"`
	// Resources are those whose relief gains within 1 % of the best, or
	// those the combined change relieves; Parts name each as the system
	// does, with its use.
	Resources []string `json:"resources,omitempty"`
	Parts     []Part   `json:"parts,omitempty"`
	// Utilization is the fraction of the time the most held of them was
	// held, Working the part its step ran.
	Utilization float64 `json:"utilization"`
	Working     float64 `json:"working,omitempty"`
	// Bound is the throughput they allow, 0 for none; Gain the best
	// relief's relative gain.
	Bound float64 `json:"bound"`
	Gain  float64 `json:"gain,omitempty"`
	// Tier are the experiments (of Experiments) that gained more than 1 %
	// and within 1 % of the best: the recommended changes.
	Tier     []int       `json:"tier,omitempty"`
	Combined *Experiment `json:"combined,omitempty"`
	// Experiments are every relief tried, best first: the causal profile.
	Experiments []Experiment `json:"profile,omitempty"`
	// Model says what the profile was simulated with.
	Model string `json:"model,omitempty"`
	// Unsimulated is why the model cannot simulate the point, where the
	// Resource is "unknown".
	Unsimulated string `json:"unsimulated,omitempty"`
	// ModelThroughput is the model's throughput for a measured point,
	// which report/text compares it with.
	ModelThroughput float64 `json:"model_throughput,omitempty"`
	// Named, Recommend, Measured and Text are the words an older file
	// kept, said where its facts are missing; this version writes none.
	Named     string   `json:"named,omitempty"`
	Recommend []string `json:"recommend,omitempty"`
	Measured  string   `json:"measured,omitempty"`
	Text      string   `json:"text,omitempty"`
}

// Named is what names a limit, as facts: its resources, as the system
// names them (report/text's LimitName says it).
type Named struct {
	Resource  string   `json:"resource"`
	Resources []string `json:"resources,omitempty"`
	Parts     []Part   `json:"parts,omitempty"`
	// Said is an older file's words for it (its bottleneck's named).
	Said string `json:"said,omitempty"`
}

// Names is what names b; a nil b's names no causal profile.
func (b *Bottleneck) Names() Named {
	if b == nil {
		return Named{}
	}
	return Named{Resource: b.Resource, Resources: b.Resources, Parts: b.Parts, Said: b.Named}
}

// Same reports whether n and o name the same limit.
func (n Named) Same(o Named) bool { return n.Resource == o.Resource && n.Said == o.Said }

// Part is one of a system's resources as the system names it, and how
// much it was used: the facts report/text names a limit by ("the 2
// grinders", "the order queue").
type Part struct {
	// Key is the resource as Bottleneck.Resources names it.
	Key string `json:"key"`
	// Noun is what one of it is called ("grinder"), Count how many there
	// are; Queue a channel's own name ("the order queue"); Stage says Key
	// is a stage's, Step a step the system describes.
	Noun  string `json:"noun,omitempty"`
	Count int    `json:"count,omitempty"`
	Queue string `json:"queue,omitempty"`
	Stage bool   `json:"stage,omitempty"`
	Step  bool   `json:"step,omitempty"`
	// Held is the share of the time it was held (the CPUs': used), Working
	// the part its step ran.
	Held    float64 `json:"held,omitempty"`
	Working float64 `json:"working,omitempty"`
}

// Top is the best of the recommended experiments; false where none is.
func (b *Bottleneck) Top() (Experiment, bool) {
	if b == nil || len(b.Tier) == 0 || b.Tier[0] >= len(b.Experiments) {
		return Experiment{}, false
	}
	return b.Experiments[b.Tier[0]], true
}

// NoCausalProfile is the limit of a point without a causal profile.
const NoCausalProfile = "no causal profile"

// Experiment is one change a causal profile tried, and what it gave.
type Experiment struct {
	// Kind is "shorter", "copy", "split", "cpu", "cpu+customer",
	// "customers", "buffer", "line", "shard" or "combined".
	Kind string `json:"kind"`
	// Reliefs say what it changed (report/text's ChangeText): one, or a
	// combined change's each.
	Reliefs []Relief `json:"reliefs,omitempty"`
	// Change is the words an older file kept for it; this version writes none.
	Change string `json:"change,omitempty"`
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

// Relief is one change a causal profile tries, as facts: Kind (as
// Experiment's); Of the step, resource or stage it changes, Part the one
// it relieves where the words name it (a lock held for less, a channel's
// buffer); Noun what one copy is called; Who the load's ("customer"); Doing
// a step's work ("grinding"); Count how many there are, on each of Lines;
// Stage a stage's workers; Word a shared word striped rather than a lock
// split in two.
type Relief struct {
	Kind  string `json:"kind"`
	Of    string `json:"of,omitempty"`
	Part  *Part  `json:"part,omitempty"`
	Noun  string `json:"noun,omitempty"`
	Who   string `json:"who,omitempty"`
	Doing string `json:"doing,omitempty"`
	Count int    `json:"count,omitempty"`
	Lines int    `json:"lines,omitempty"`
	Stage bool   `json:"stage,omitempty"`
	Word  bool   `json:"word,omitempty"`
}

// Named is what e relieves as a bottleneck names it: a step made shorter
// names its step's resource alone, not the CPU time that saves too.
func (e Experiment) Named() []string {
	if e.Kind == "shorter" && len(e.Resources) > 1 {
		return e.Resources[:1]
	}
	return e.Resources
}
