// Package comparison holds how NEW differs from OLD, configuration by
// configuration, as explain/compare finds it.
package comparison

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/jsonout"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/stats"
)

// Key is a configuration: what was measured, apart from where (the sides'
// machines usually differ) and when. Whether the point is the model's is
// part of it: a prediction is never compared with a measurement.
type Key struct {
	Mode string  `json:"mode"`
	CPUs int     `json:"cpus"`
	Par  int     `json:"par"`
	Rate float64 `json:"rate,omitempty"`
	MaxQ int     `json:"maxq,omitempty"`
	// Steps are the shop's step durations and clock (wall by default).
	Steps results.Steps `json:"steps"`
	// Model marks a prediction, with its policy; seeds are repetitions.
	Model bool   `json:"model,omitempty"`
	Sched string `json:"sched,omitempty"`
	// Bench marks a Go benchmark: Mode is its name, CPUs its GOMAXPROCS.
	Bench bool `json:"bench,omitempty"`
}

// KeyOf returns the configuration p was measured, or predicted, in.
func KeyOf(p results.Point) Key {
	k := Key{Mode: p.Mode, CPUs: p.CPUs, Par: p.Par, Rate: p.Rate, MaxQ: p.MaxQ,
		Model: p.IsModel(), Sched: p.Sched, Bench: p.Kind == results.KindBench}
	if p.Kind == results.KindShop || p.Kind == results.KindStudy {
		k.Steps = p.Steps()
		k.Steps.Clock = cmp.Or(k.Steps.Clock, "wall") // files from before the clock was recorded
	}
	return k
}

// String names the configuration briefly: "finelocking (model fifo)
// cpus=2 par=2", with an open loop's rate and maxq and steps not default.
func (k Key) String() string {
	if k.Bench {
		return results.BenchName(k.Mode, k.CPUs)
	}
	s := fmt.Sprintf("%s cpus=%d par=%d", k.ModeLabel(), k.CPUs, k.Par)
	if k.Rate > 0 {
		s += fmt.Sprintf(" rate=%s maxq=%d", strconv.FormatFloat(k.Rate, 'f', -1, 64), k.MaxQ)
	}
	if labels := k.Steps.NonDefault(); len(labels) > 0 {
		s += " " + strings.Join(labels, " ")
	}
	return s
}

// ModeLabel is the mode, and for a prediction "(model)" and its policy.
func (k Key) ModeLabel() string {
	if !k.Model {
		return k.Mode
	}
	if k.Sched == "" {
		return k.Mode + " (model)"
	}
	return k.Mode + " (model " + k.Sched + ")"
}

// Side describes one side of a comparison.
type Side struct {
	// Sources are the points' origins in the order first seen.
	Sources     []string `json:"sources"`
	Points      int      `json:"points"`
	ModelPoints int      `json:"model_points,omitempty"`
	// MinCount and MaxCount bound the repetitions of one configuration.
	MinCount int `json:"min_count"`
	MaxCount int `json:"max_count"`
	// Disturbed counts the measured points other processes took CPU from.
	Disturbed int `json:"disturbed"`
}

// Comparison is how NEW differs from OLD, configuration by configuration.
type Comparison struct {
	// Alpha is the verdicts' significance level, Confidence the medians'
	// intervals'.
	Alpha      float64 `json:"alpha"`
	Confidence float64 `json:"confidence"`
	Old        Side    `json:"old"`
	New        Side    `json:"new"`
	// Answers sum the rows up, a kind of configuration each.
	Answers []Answer `json:"answers"`
	// Rows are the configurations in both, in the order OLD has them.
	Rows []Row `json:"rows"`
	// Geomeans summarize each metric over the rows, per unit.
	Geomeans []Geomean `json:"geomeans"`
	// OnlyOld and OnlyNew are the configurations only one side has.
	OnlyOld []Key `json:"only_old"`
	OnlyNew []Key `json:"only_new"`
	// Changed says that the sides differ in their steps throughout, so
	// configurations were matched without them: "steps: old …, new …".
	Changed string `json:"changed,omitempty"`
	// All asks the table for every configuration's row.
	All bool `json:"-"`
}

// Row compares one configuration: throughput, p50 and p99, the latencies
// missing where a side completed no operation.
type Row struct {
	Key     Key      `json:"key"`
	Metrics []Metric `json:"metrics"`
}

// Metric compares one metric of one configuration.
type Metric struct {
	// Name is "throughput", "p50", "p99" or a unit of Go benchmarks'
	// lines ("B/op"); Unit is the throughput's unit, or "ms".
	Name string `json:"name"`
	Unit string `json:"unit"`
	// Better is "higher" or "lower".
	Better string        `json:"better"`
	Old    stats.Summary `json:"old"`
	New    stats.Summary `json:"new"`
	// DeltaPct is the change of the median in percent, NaN from 0.
	DeltaPct float64 `json:"delta_pct"`
	// GainLo and GainHi bound NEW's median over OLD's, minus 1, by the
	// two intervals; infinite where an interval is.
	GainLo float64 `json:"gain_lo"`
	GainHi float64 `json:"gain_hi"`
	// P is the Mann-Whitney U test's p-value; Significant is P < Alpha
	// with [GainLo, GainHi], where bounded, on one side of 0, and no
	// sample of either side disturbed.
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	// Inconclusive is InconclusiveDisturbed where the test and the
	// interval would have called a change but a side has disturbed
	// samples: other processes' CPU, not the change, may have made it.
	Inconclusive string `json:"inconclusive,omitempty"`
	// TooFew says no samples of these sizes could reach P < Alpha; Need
	// runs a side would.
	TooFew bool `json:"too_few"`
	Need   int  `json:"need,omitempty"`
	// Change is +1 when NEW is significantly better, -1 worse, else 0
	// (report/text's MetricVerdict says the verdict).
	Change int `json:"change"`
}

// Geomean is the geometric mean of a metric's medians over the rows that
// have it in one unit, as benchstat's geomean row.
type Geomean struct {
	Name     string  `json:"name"`
	Unit     string  `json:"unit"`
	Old      float64 `json:"old"`
	New      float64 `json:"new"`
	DeltaPct float64 `json:"delta_pct"`
	// Rows counts the rows included, those with positive medians.
	Rows int `json:"rows"`
}

// Answer is what compare says first about one kind of the configurations
// both files have: which changed, which did not, which cannot tell.
type Answer struct {
	// Kind is "measured", "model" or "bench".
	Kind string `json:"kind"`
	// Configs counts the configurations; MinRuns and MaxRuns bound the
	// repetitions a side had of one.
	Configs int `json:"configs"`
	MinRuns int `json:"min_runs"`
	MaxRuns int `json:"max_runs"`
	// Changed are the configurations with a metric significantly better
	// or worse, the largest change of their first metric first.
	Changed []ConfigChange `json:"changed"`
	// Same counts the configurations with no significant difference in
	// any metric, Inconclusive those with a change their disturbed samples
	// leave untold, TooFew those with too few runs for any verdict (Need
	// runs a side give one), Equal those of them with every median the
	// same on both sides.
	Same         int `json:"same"`
	Inconclusive int `json:"inconclusive"`
	TooFew       int `json:"too_few"`
	Equal        int `json:"equal"`
	Need         int `json:"need,omitempty"`
	// Largest are, where every configuration has too few runs, the
	// MaxNamed largest changes of their first metric.
	Largest []ConfigChange `json:"largest,omitempty"`
}

// MaxNamed is how many configurations an answer names.
const MaxNamed = 3

// ConfigChange is a configuration's changes: of its significant metrics,
// or of its first (Answer.Largest).
type ConfigChange struct {
	Key     Key           `json:"key"`
	Metrics []MetricDelta `json:"metrics"`
}

// MetricDelta is one metric's change in percent, and its direction.
type MetricDelta struct {
	Name     string  `json:"name"`
	DeltaPct float64 `json:"delta_pct"`
	Change   int     `json:"change"`
}

// MarshalJSON writes a change from 0 and infinite bounds as null.
func (m Metric) MarshalJSON() ([]byte, error) {
	type plain Metric // without this method
	return jsonout.Marshal(struct {
		plain
		DeltaPct *float64 `json:"delta_pct"`
		GainLo   *float64 `json:"gain_lo"`
		GainHi   *float64 `json:"gain_hi"`
	}{plain(m), jsonout.Finite(m.DeltaPct), jsonout.Finite(m.GainLo), jsonout.Finite(m.GainHi)})
}

// Sizes gives sample sizes as benchstat does: "6", or "6+3".
func Sizes(n1, n2 int) string {
	if n1 == n2 {
		return fmt.Sprint(n1)
	}
	return fmt.Sprintf("%d+%d", n1, n2)
}

// WriteJSON writes the comparison as one indented JSON object; numbers
// JSON cannot hold (infinite bounds, a change from 0) are null.
func (c Comparison) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "need >= 6 samples", not "need \u003e= 6"
	return enc.Encode(c)
}
