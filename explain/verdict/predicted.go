package verdict

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// LeavesOut says in a line what a study's prediction does not model.
const LeavesOut = "Past the CPUs measured, the model keeps an operation's costs as measured on the most of them: it leaves out " +
	"how they grow with more cores (cache lines shared by more cores, memory bandwidth, the garbage collector's extra work); " +
	"the locks of a group are taken at random, evenly, and channels count as work."

// Check is a study's prediction held against what was measured at one
// CPU count.
type Check struct {
	Variant  string
	CPUs     int
	Measured float64 // the median of the measured runs' throughput
	Runs     int
	// Disturbed reports whether any of the runs was (results.Point.Disturbed).
	Disturbed bool
	Predicted results.Point
}

// Lo and Hi are the prediction's band, or its point estimate where it
// has none.
func (c Check) Lo() float64 {
	if b := c.Predicted.Band; b != nil {
		return b.Throughput[0]
	}
	return c.Predicted.Throughput
}

// Hi is the band's upper edge; see Lo.
func (c Check) Hi() float64 {
	if b := c.Predicted.Band; b != nil {
		return b.Throughput[1]
	}
	return c.Predicted.Throughput
}

// resolution is how finely a study's prediction can reproduce a
// measurement, a fraction either way: its steps are whole nanoseconds
// (half a nanosecond of a 100 ns operation is 0.5 %) and its window
// counts whole cycles of each worker (one in 500, 0.2 %).
const resolution = 0.005

// Within reports whether the measured throughput lies within the band,
// to the model's resolution.
func (c Check) Within() bool {
	return c.Measured >= c.Lo()*(1-resolution) && c.Measured <= c.Hi()*(1+resolution)
}

// Off is how far the measured throughput lies from the nearest edge of
// the band, as a fraction of that edge: negative where it measured less.
func (c Check) Off() float64 {
	switch {
	case c.Within():
		return 0
	case c.Measured < c.Lo():
		return c.Measured/c.Lo() - 1
	}
	return c.Measured/c.Hi() - 1
}

// Verdict says, in words, how the prediction fares: "within its band",
// or "off by -22 %" (the measured against the nearest edge).
func (c Check) Verdict() string {
	if c.Within() {
		return "within its band"
	}
	return fmt.Sprintf("off by %+.0f %%", 100*c.Off())
}

// Checks holds each of a study's predicted points (its model's) against
// the measured points of the same study, variant and CPU count, where
// there are any, in the order of the predicted points.
func Checks(points []results.Point) []Check {
	var out []Check
	for _, p := range points {
		if !p.IsModel() || p.Study == "" {
			continue
		}
		var thr []float64
		c := Check{Variant: p.Mode, CPUs: p.CPUs, Predicted: p}
		for _, m := range points {
			if !m.IsModel() && m.Study == p.Study && m.Mode == p.Mode && m.CPUs == p.CPUs {
				thr = append(thr, m.Throughput)
				c.Disturbed = c.Disturbed || m.Disturbed
			}
		}
		if len(thr) == 0 {
			continue
		}
		c.Measured, c.Runs = results.Median(thr), len(thr)
		out = append(out, c)
	}
	return out
}

// Prediction is what a study's model (its predict command: a blueprint
// made of each variant's meters, simulated) says of the variants on the
// most CPUs it predicted, and how it fares where they were measured.
type Prediction struct {
	// Source says what predicted it: "predicted by its model (go), for
	// vm's runtime costs, measured …".
	Source string
	// CPUs is the most CPUs predicted, and At each variant's point there,
	// the most throughput first.
	CPUs int
	At   []results.Point
	// Checks hold the prediction against each measured CPU count.
	Checks []Check
}

// predictionOf is the prediction among a study's points, nil where none
// is predicted.
func predictionOf(points []results.Point) *Prediction {
	var model []results.Point
	for _, p := range points {
		if p.IsModel() {
			model = append(model, p)
		}
	}
	if len(model) == 0 {
		return nil
	}
	pr := &Prediction{Source: "predicted by its model (" + model[0].Sched + ")", Checks: Checks(points)}
	if c := model[0].Calibration; c != nil {
		pr.Source += ", " + c.For()
	}
	for _, p := range model {
		pr.CPUs = max(pr.CPUs, p.CPUs)
	}
	for _, p := range model {
		if p.CPUs == pr.CPUs && !slices.ContainsFunc(pr.At, func(q results.Point) bool { return q.Mode == p.Mode }) {
			pr.At = append(pr.At, p)
		}
	}
	slices.SortStableFunc(pr.At, func(a, b results.Point) int { return cmp.Compare(b.Throughput, a.Throughput) })
	return pr
}

// Sentences say what the model predicts on the most CPUs, each variant
// with its band, those whose model holds no lock apart (nothing in it
// waits, so it grows with every CPU); then how the prediction fares where
// it was measured; then what it leaves out.
func (pr Prediction) Sentences() []string {
	var locked, free []string
	unit := ""
	for _, p := range pr.At {
		unit = p.Unit
		s := format.Rate(p.Throughput, p.Unit)
		if b := p.Band; b != nil && siRate(b.Throughput[0]) != siRate(b.Throughput[1]) {
			s += fmt.Sprintf(" [%s, %s]", siRate(b.Throughput[0]), siRate(b.Throughput[1]))
		}
		if p.Shop == nil || len(p.Machines) == 0 {
			free = append(free, p.Mode+" "+s)
		} else {
			locked = append(locked, p.Mode+" "+s)
		}
	}
	var parts []string
	if len(locked) > 0 {
		parts = append(parts, strings.Join(locked, ", "))
	}
	if len(free) > 0 {
		no := "its model holds"
		if len(free) > 1 {
			no = "their models hold"
		}
		parts = append(parts, strings.Join(free, ", ")+" (no meter, so "+no+" no lock: the work alone, which every CPU adds to)")
	}
	out := []string{fmt.Sprintf("On %s, %s: %s.", format.Count(pr.CPUs, "CPU"), pr.Source, strings.Join(parts, "; "))}
	if len(pr.Checks) > 0 {
		var counts []int
		within := 0
		var off []string
		for _, c := range pr.Checks {
			if !slices.Contains(counts, c.CPUs) {
				counts = append(counts, c.CPUs)
			}
			if c.Within() {
				within++
				continue
			}
			off = append(off, fmt.Sprintf("%s on %s measured %s, predicted %s [%s, %s]: %s", c.Variant, format.Count(c.CPUs, "CPU"),
				format.Rate(c.Measured, unit), siRate(c.Predicted.Throughput), siRate(c.Lo()), siRate(c.Hi()), c.Verdict()))
		}
		slices.Sort(counts)
		names := make([]string, len(counts))
		for i, n := range counts {
			names[i] = fmt.Sprint(n)
		}
		s := fmt.Sprintf("Held against what was measured on %s CPU(s): %d of %d points lie within the predicted band", format.JoinAnd(names), within, len(pr.Checks))
		if len(off) > 0 {
			s += "; " + strings.Join(off, "; ")
		}
		out = append(out, s+".")
	}
	return append(out, LeavesOut)
}

// WritePrediction writes a study's predicted points as a table: a row per
// variant and CPU count among shown (every count where shown is nil) with
// the predicted throughput, its band, the structural bound and what sets
// it, and, where measured, the measured throughput and the check; then
// what the figures are. points holds the predicted points and the
// measured ones they are checked against. The sentences of the study's
// Described say how the checks come out and what the model leaves out.
func WritePrediction(w io.Writer, points []results.Point, shown []int) error {
	var predicted []results.Point
	width := len("variant")
	for _, p := range points {
		if p.IsModel() {
			predicted = append(predicted, p)
			width = max(width, len(p.Mode))
		}
	}
	cs := Checks(points)
	var b strings.Builder
	fmt.Fprintf(&b, "  %-*s  %4s  %14s  %-24s  %-18s  %14s  %s\n", width, "variant", "cpus", "predicted", "band", "bound", "measured", "check")
	for _, p := range predicted {
		if shown != nil && !slices.Contains(shown, p.CPUs) {
			continue
		}
		band := "-"
		if p.Band != nil {
			band = fmt.Sprintf("[%s, %s]", siRate(p.Band.Throughput[0]), siRate(p.Band.Throughput[1]))
		}
		bound := "-"
		if bd := p.Bounds; bd != nil && bd.ThroughputMax > 0 {
			bound = fmt.Sprintf("%s %s", siRate(bd.ThroughputMax), boundName(bd))
		}
		meas, says := "", ""
		if i := slices.IndexFunc(cs, func(c Check) bool { return c.Variant == p.Mode && c.CPUs == p.CPUs }); i >= 0 {
			c := cs[i]
			meas = siRate(c.Measured)
			if c.Disturbed {
				meas += "*"
			}
			says = c.Verdict()
		}
		row := fmt.Sprintf("  %-*s  %4d  %14s  %-24s  %-18s  %14s  %s", width, p.Mode, p.CPUs, siRate(p.Throughput), band, bound, meas, says)
		b.WriteString(strings.TrimRight(row, " ") + "\n")
	}
	unit := "ops/s"
	if len(predicted) > 0 {
		unit = predicted[0].Unit
	}
	fmt.Fprintf(&b, "\nThroughput in %s (M = million); bound: the structural limit and what sets it", unit)
	if shown != nil {
		b.WriteString("; the table shows the powers of two, the ends and the counts measured (--format json has every count)")
	}
	b.WriteString(".\n")
	if slices.ContainsFunc(cs, func(c Check) bool { return c.Disturbed }) {
		b.WriteString("* a measured run of this point was disturbed: other processes took CPU from it.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// siRate writes a throughput with an SI prefix and no unit: "8.13M".
func siRate(v float64) string {
	for _, p := range []struct {
		f float64
		s string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.f {
			return fmt.Sprintf("%.3g%s", v/p.f, p.s)
		}
	}
	return fmt.Sprintf("%.3g", v)
}

// boundName says what sets a structural bound: "cpus", a resource,
// "customers".
func boundName(b *results.Bounds) string {
	if b.Limit == "" {
		return "cpus"
	}
	return b.Limit
}
