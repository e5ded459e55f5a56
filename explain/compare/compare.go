// Package compare answers "is B better than A?", configuration by
// configuration, as benchstat does: each side's repetitions (--count) are
// samples summarized by their median and its 95 % interval, and a
// Mann-Whitney U test says whether a difference is significant; "too few
// runs to tell" is an answer too. Predictions are compared only with
// predictions (Key). Compare returns a Comparison, written by WriteTable
// for people and WriteJSON for programs.
package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/stats"
)

// Options configure Compare.
type Options struct {
	// Alpha is the significance level: a change counts when its p-value
	// is below it, its interval excludes zero and no sample of it was
	// disturbed (Metric.Significant). 0 means 0.05, benchstat's default.
	Alpha float64
	// All asks WriteTable for every configuration's row; without it the
	// tables of the shop's and studies' points leave out those with too
	// few runs for a verdict, which the answer above them sums up.
	All bool
}

// Check reports options Compare cannot make sense of.
func (o Options) Check() error {
	if !(o.Alpha >= 0 && o.Alpha < 1) { // NaN fails too
		return fmt.Errorf("alpha %v: want a significance level between 0 and 1, such as 0.05", o.Alpha)
	}
	return nil
}

func (o Options) alpha() float64 { return cmp.Or(o.Alpha, stats.Alpha) }

// Key is a configuration: what was measured, apart from where and when.
// Points with equal keys are repetitions of one another. The machine is
// not part of it (the two sides usually differ in it); whether the point
// is the model's is, so that a prediction is never compared with a
// measurement.
type Key struct {
	Mode string  `json:"mode"`
	CPUs int     `json:"cpus"`
	Par  int     `json:"par"`
	Rate float64 `json:"rate,omitempty"`
	MaxQ int     `json:"maxq,omitempty"`
	// Steps are the shop's step durations and clock (wall by default).
	Steps results.Steps `json:"steps"`
	// Model marks a prediction, with its policy; its seeds are its
	// repetitions.
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
// cpus=2 par=2", with an open loop's rate and maxq and the steps that are
// not the default.
func (k Key) String() string {
	if k.Bench {
		return results.BenchName(k.Mode, k.CPUs)
	}
	s := fmt.Sprintf("%s cpus=%d par=%d", k.modeLabel(), k.CPUs, k.Par)
	if k.Rate > 0 {
		s += fmt.Sprintf(" rate=%s maxq=%d", strconv.FormatFloat(k.Rate, 'f', -1, 64), k.MaxQ)
	}
	if labels := k.Steps.NonDefault(); len(labels) > 0 {
		s += " " + strings.Join(labels, " ")
	}
	return s
}

// modeLabel is the mode, and for a prediction "(model)" and its policy.
func (k Key) modeLabel() string {
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
	// Sources are the points' origins (results.Point.Origin) in the
	// order first seen.
	Sources     []string `json:"sources"`
	Points      int      `json:"points"`
	ModelPoints int      `json:"model_points,omitempty"`
	// MinCount and MaxCount are the fewest and the most repetitions of
	// one configuration.
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
	// Answers sum the rows up, a kind of configuration each: the answer
	// written first.
	Answers []Answer `json:"answers"`
	// Rows are the configurations in both, in the order OLD has them.
	Rows []Row `json:"rows"`
	// Geomeans summarize each metric over the rows, per unit.
	Geomeans []Geomean `json:"geomeans"`
	// OnlyOld and OnlyNew are the configurations only one side has.
	OnlyOld []Key `json:"only_old"`
	OnlyNew []Key `json:"only_new"`
	// Changed says that the sides differ in their steps throughout
	// ("steps: old default steps, new grind=2ms"), so configurations were
	// matched without them.
	Changed string `json:"changed,omitempty"`
	// all is Options.All.
	all bool
}

// Row compares one configuration: throughput, p50 and p99, the latencies
// missing where a side completed no operation.
type Row struct {
	Key     Key      `json:"key"`
	Metrics []Metric `json:"metrics"`
}

// Compare groups each side's points by Key and compares the
// configurations both sides have; opts should pass Check.
func Compare(old, new []results.Point, opts Options) Comparison {
	alpha := opts.alpha()
	var changed string
	if so, ok := sameSteps(old); ok {
		if sn, ok := sameSteps(new); ok && so != sn {
			changed = fmt.Sprintf("steps: old %s, new %s", stepsText(so, "default steps"), stepsText(sn, "default steps"))
			old, new = withoutSteps(old), withoutSteps(new)
		}
	}
	oldKeys, o, oldSide := group(old)
	newKeys, n, newSide := group(new)
	defs := metricsOf(old, new)
	c := Comparison{Alpha: alpha, Confidence: stats.Confidence, Old: oldSide, New: newSide,
		Rows: []Row{}, Geomeans: []Geomean{}, OnlyOld: []Key{}, OnlyNew: []Key{}, Changed: changed, all: opts.All}
	for _, k := range oldKeys {
		if _, ok := n[k]; !ok {
			c.OnlyOld = append(c.OnlyOld, k)
			continue
		}
		row := Row{Key: k}
		for _, def := range defs {
			if m, ok := def.compare(o[k], n[k], alpha); ok {
				row.Metrics = append(row.Metrics, m)
			}
		}
		c.Rows = append(c.Rows, row)
	}
	for _, k := range newKeys {
		if _, ok := o[k]; !ok {
			c.OnlyNew = append(c.OnlyNew, k)
		}
	}
	c.Geomeans = geomeans(c.Rows)
	c.Answers = answers(c.Rows)
	return c
}

// Metrics compares two sets of repetitions whatever their configurations,
// as a Row: how a change made on purpose (a step shorter) is judged.
func Metrics(old, new []results.Point, opts Options) []Metric {
	var out []Metric
	for _, def := range metricDefs() {
		if m, ok := def.compare(old, new, opts.alpha()); ok {
			out = append(out, m)
		}
	}
	return out
}

// group groups one side's points by configuration, keys in the order
// first seen, and describes the side.
func group(points []results.Point) ([]Key, map[Key][]results.Point, Side) {
	keys, by := collect.GroupBy(points, func(p results.Point) (Key, bool) { return KeyOf(p), true })
	s := Side{Sources: []string{}, Points: len(points)}
	for _, p := range points {
		s.Sources = collect.AppendNew(s.Sources, p.Origin())
		if p.IsModel() {
			s.ModelPoints++
		}
		if p.IsDisturbed() {
			s.Disturbed++
		}
	}
	for i, k := range keys {
		if n := len(by[k]); i == 0 || n < s.MinCount {
			s.MinCount = n
		}
		s.MaxCount = max(s.MaxCount, len(by[k]))
	}
	return keys, by, s
}

// sameSteps returns the steps all points share, if they share them.
func sameSteps(points []results.Point) (results.Steps, bool) {
	if len(points) == 0 {
		return results.Steps{}, false
	}
	s := KeyOf(points[0]).Steps
	return s, !slices.ContainsFunc(points, func(p results.Point) bool { return KeyOf(p).Steps != s })
}

// withoutSteps copies points with the default steps in place of their
// own, so that they match by everything else; the header says what
// changed.
func withoutSteps(points []results.Point) []results.Point {
	out := make([]results.Point, len(points))
	for i, p := range points {
		if p.Shop != nil { // a copy: the points' own keep their steps
			shop := *p.Shop
			shop.Steps = results.DefaultSteps()
			p.Shop = &shop
		}
		out[i] = p
	}
	return out
}

// stepsText names the steps that are not the default, or says none.
func stepsText(s results.Steps, none string) string {
	if labels := s.NonDefault(); len(labels) > 0 {
		return strings.Join(labels, " ")
	}
	return none
}
