package text

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// WriteCompact writes the short tables of points for a terminal from their
// analysis a, a blank line between: the shop's (a.Ranges), the studies'
// (a.StudyTable), each study's prediction, the labs' (as labs writes them;
// nil: in full) and the Go benchmarks'.
func WriteCompact(w io.Writer, points []results.Point, a *analysis.Analysis, labs func(io.Writer, []results.Point) error) error {
	var parts []func() error
	for _, t := range a.Ranges {
		parts = append(parts, func() error { return writeRanges(w, t) })
	}
	if t := a.StudyTable; t != nil {
		parts = append(parts, func() error { return writeStudies(w, *t) })
	}
	for _, d := range a.Verdict.Studies {
		if d.Prediction == nil {
			continue
		}
		predicted := slices.DeleteFunc(slices.Clone(points), func(p results.Point) bool {
			return !p.IsModel() || p.Kind != results.KindStudy || p.StudyName() != d.Study
		})
		parts = append(parts, func() error {
			fmt.Fprintf(w, "study %s, %s:\n", d.Study, PredictionSource(*d.Prediction))
			return WritePrediction(w, predicted, d.Prediction.Checks, nil)
		})
	}
	of := func(k results.Kind) []results.Point {
		return slices.DeleteFunc(slices.Clone(points), func(p results.Point) bool { return p.Kind != k })
	}
	labPoints, benches := of(results.KindLab), of(results.KindBench)
	if labs == nil {
		labs = WriteTable
	}
	if len(labPoints) > 0 {
		parts = append(parts, func() error { return labs(w, labPoints) })
	}
	if len(benches) > 0 {
		parts = append(parts, func() error { return WriteTable(w, benches) })
	}
	return writeApart(w, parts)
}

// loadText says a series' load and policy in short: "4 customers",
// "fifo, open loop of 800 orders/s, 2 servers". sched says to name the
// policy; series, to name the load even where it is one per CPU.
func loadText(l analysis.RowLoad, sched, series bool) string {
	var parts []string
	if sched && l.Sched != "" {
		parts = append(parts, l.Sched)
	}
	if l.Rate > 0 {
		parts = append(parts, "open loop of "+format.Number(l.Rate)+" orders/s")
	}
	switch {
	case l.PerCPU:
		if series {
			parts = append(parts, "one per CPU")
		}
	case l.Rate > 0:
		parts = append(parts, format.Count(l.Par, "server"))
	default:
		parts = append(parts, format.Count(l.Par, "customer"))
	}
	if l.Harness != "" {
		parts = append(parts, l.Harness+" harness")
	}
	return strings.Join(parts, ", ")
}

// rowName names a compact table's row: its mode, with its race, its load
// where it must be said, and its machine.
func rowName(r analysis.RangeRow) string {
	name := r.Mode
	if r.Races {
		name += " (data race)"
	}
	if r.Load != nil {
		name += " (" + loadText(*r.Load, r.Series && r.Policies, r.Series) + ")"
	}
	if r.Host != "" {
		name += " on " + r.Host
	}
	return name
}

// longRowName is the longest row name that stays in its row.
const longRowName = 18

// writeRanges writes a compact table of the shop's points: a heading that
// says where they come from, a row per mode and series, and a line
// saying which were disturbed.
func writeRanges(w io.Writer, t analysis.Ranges) error {
	head := "measured on " + strings.Join(t.Hosts, ", ")
	if t.Model {
		head = "predicted by the model"
		if t.Sched != "" {
			head += " (" + t.Sched + ")"
		}
		// Which calibration, not its every cost: those are the full
		// table's (results.CalibrationLines).
		if len(t.Calibrations) > 0 {
			head += ", " + strings.Join(collect.Mapped(t.Calibrations, results.Calibration.For), "; ")
		}
	}
	head += ": " + format.Count(t.Points, "point") + ", per mode"
	if t.Reps {
		head += ", the median of each count's runs"
	}
	fmt.Fprintln(w, format.Wrap(head, format.Width(w), "  "))
	tab := format.Table{Ragged: true}
	// A measured row's limits are the model's causal profiles of its
	// configurations: nothing was relieved on the real CPUs.
	limitedBy := "limited by"
	if !t.Model {
		limitedBy = "limited by (model's profile)"
	}
	// Points simulated without their causal profiles (brewput model
	// --causal=false) have no limit to name: no column says so.
	profiled := slices.ContainsFunc(t.Rows, func(r analysis.RangeRow) bool {
		return slices.ContainsFunc(r.Limits, func(l analysis.LimitSpan) bool { return l.Named != results.NoCausalProfile })
	})
	// One unit for the column, the one its largest time reads best in.
	largest := 0.0
	for _, r := range t.Rows {
		largest = max(largest, r.P50Hi)
	}
	unit, perMs := format.TimeUnit(largest)
	if profiled {
		tab.Row("mode", "cpus", "throughput", "p50 "+unit, limitedBy)
	} else {
		tab.Row("mode", "cpus", "throughput", "p50 "+unit)
	}
	var disturbed []string
	for _, r := range t.Rows {
		name := rowName(r)
		limits := collect.Mapped(r.Limits, func(l analysis.LimitSpan) string { return fmt.Sprintf("%s (%s)", l.Named, cpuSpan(l.From, l.To)) })
		for _, d := range r.Disturbed {
			s := fmt.Sprintf("%s on %s", name, cpus(d.CPUs))
			if d.Of > 1 {
				s += fmt.Sprintf(" (%d of %d runs)", d.Count, d.Of)
			}
			disturbed = append(disturbed, s)
		}
		// A long name, a load or a host said, goes on a line of its own,
		// its figures under it, so that the columns fit 80.
		shown := name
		if utf8.RuneCountInString(name) > longRowName {
			tab.Line(name)
			shown = ""
		}
		cells := []string{shown, cpuSpan(r.From, r.To), rateRange(r.Lo, r.Hi) + " " + r.Unit, format.Range(format.Ms3(r.P50Lo*perMs), format.Ms3(r.P50Hi*perMs))}
		if profiled {
			cells = append(cells, strings.Join(limits, ", "))
		}
		tab.Row(cells...)
	}
	if err := tab.Write(w); err != nil {
		return err
	}
	if len(disturbed) > 0 {
		fmt.Fprintln(w, format.Wrap("Disturbed (other processes took CPU while they were measured; such a point says little about the design): "+
			format.JoinAnd(disturbed)+".", format.Width(w), ""))
	}
	if s := bandsSentence(t.Rows); s != "" {
		fmt.Fprintln(w, format.Wrap(s, format.Width(w), ""))
	}
	return nil
}

// bandsSentence says each predicted row's throughput on its most CPUs with
// the band the costs' uncertainty allows there, the rows on the same count
// together: "On 8 CPUs, with the costs' uncertainty: locking 250,
// multi-2 1782 (1766–1806) lattes/s." The table's columns leave no room
// for a band at 80 columns; "" where no row has one.
func bandsSentence(rows []analysis.RangeRow) string {
	type at struct {
		cpus int
		unit string
	}
	var order []at
	said := map[at][]string{}
	banded := false
	for _, r := range rows {
		if r.Band == nil {
			continue
		}
		k := at{r.To, r.Unit}
		if _, ok := said[k]; !ok {
			order = append(order, k)
		}
		figure := rateRange(r.Last, r.Last)
		if b := rateRange(r.Band[0], r.Band[1]); b != figure {
			figure += " (" + b + ")"
			banded = true
		}
		said[k] = append(said[k], rowName(r)+" "+figure)
	}
	if !banded {
		return ""
	}
	s := strings.Join(collect.Mapped(order, func(k at) string {
		return fmt.Sprintf("on %s, with the costs' uncertainty: %s %s", cpus(k.cpus), format.JoinAnd(said[k]), k.unit)
	}), "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeStudies writes the studies' compact table.
func writeStudies(w io.Writer, t analysis.StudyTable) error {
	width := format.Width(w)
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("study %s, measured on %s: %s, the median of each variant's runs (no causal profile: a limit is named only by experiment)",
		strings.Join(t.Studies, ", "), strings.Join(t.Hosts, ", "), format.Count(t.Points, "point")), width, "  "))
	sources := len(t.Hosts) > 1
	// par only where a row has other than a customer per CPU, and the
	// meter last, under its row where the columns leave it too little
	// room: the table fits the width.
	par := slices.ContainsFunc(t.Rows, func(r analysis.StudyRow) bool { return r.Par != r.CPUs })
	head := []string{"variant", "cpus"}
	if par {
		head = append(head, "par")
	}
	if t.Reps {
		head = append(head, "runs")
	}
	if t.Open {
		head = append(head, "rate/s", "drops")
	}
	head = append(head, "throughput", "of the most", "p50", "p99", "cpu util")
	if sources {
		head = append(head, "source")
	}
	head = append(head, "most used meter (held, wait)")
	tab := format.Table{Align: []format.Align{format.Right}, Indent: true, Ragged: true, Width: width}
	tab.Row(head...)
	for _, r := range t.Rows {
		row := []string{r.Variant, strconv.Itoa(r.CPUs)}
		if par {
			row = append(row, strconv.Itoa(r.Par))
		}
		if t.Reps {
			row = append(row, strconv.Itoa(r.Runs))
		}
		if t.Open {
			row = append(row, fmt.Sprintf("%g", r.Rate), strconv.FormatInt(r.Drops, 10))
		}
		share := "-"
		if r.Share > 0 {
			share = "×" + format.Sig(r.Share, 2)
		}
		row = append(row, format.Rate(r.Throughput, r.Unit), share, format.Wait(r.P50), format.Wait(r.P99), fmt.Sprintf("%.0f%%", 100*r.Util))
		if sources {
			row = append(row, r.Origin)
		}
		tab.Row(append(row, r.Meter)...)
	}
	if err := tab.Write(w); err != nil {
		return err
	}
	if len(t.Disturbed) > 0 {
		words := collect.Mapped(t.Disturbed, func(d analysis.Runs) string { return runsWords(d) + " on " + cpus(d.CPUs) })
		fmt.Fprintln(w, format.Wrap("Disturbed (other processes took CPU while they were measured): "+strings.Join(words, ", ")+".", width, ""))
	}
	return nil
}
