// Package compare answers "is B better than A?", configuration by
// configuration, as benchstat does: each side's repetitions are summarized
// by their median and its 95 % interval, and a Mann-Whitney U test says
// whether a difference is significant; "too few runs to tell" is an answer
// too.
package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/comparison"
	"github.com/brewput/brewput/results/stats"
)

// Options configure Compare.
type Options struct {
	// Alpha is the significance level (Metric.Significant); 0 means 0.05.
	Alpha float64
	// All asks the tables for every configuration's row, not leaving out
	// those with too few runs for a verdict, which the answer sums up.
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

// Compare groups each side's points by Key and compares the
// configurations both sides have; opts should pass Check.
func Compare(old, new []results.Point, opts Options) comparison.Comparison {
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
	c := comparison.Comparison{Alpha: alpha, Confidence: stats.Confidence, Old: oldSide, New: newSide, All: opts.All,
		Rows: []comparison.Row{}, Geomeans: []comparison.Geomean{}, OnlyOld: []comparison.Key{}, OnlyNew: []comparison.Key{}, Changed: changed}
	for _, k := range oldKeys {
		if _, ok := n[k]; !ok {
			c.OnlyOld = append(c.OnlyOld, k)
			continue
		}
		row := comparison.Row{Key: k}
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

// Metrics compares two sets of repetitions whatever their configurations.
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
func group(points []results.Point) ([]comparison.Key, map[comparison.Key][]results.Point, comparison.Side) {
	keys, by := collect.GroupBy(points, func(p results.Point) (comparison.Key, bool) { return comparison.KeyOf(p), true })
	s := comparison.Side{Sources: []string{}, Points: len(points)}
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
	s := comparison.KeyOf(points[0]).Steps
	return s, !slices.ContainsFunc(points, func(p results.Point) bool { return comparison.KeyOf(p).Steps != s })
}

// withoutSteps copies points with the default steps in place of their
// own, so that they match by everything else.
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

// Metric is a compared metric, as results/comparison has it.
type Metric = comparison.Metric
