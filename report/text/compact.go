package text

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// WriteAnswer writes the verdict of analysis a, then WriteCompact's tables.
func WriteAnswer(w io.Writer, points []results.Point, a *analysis.Analysis, labs func(io.Writer, []results.Point) error) error {
	if v := a.Verdict; !v.Empty() {
		if err := WriteVerdict(w, v); err != nil {
			return err
		}
		if len(v.Studies)+len(v.Benches) > 0 || len(a.Ranges) == 0 {
			fmt.Fprintln(w)
		}
	}
	return WriteCompact(w, points, a, labs)
}

// WriteCompact writes the short tables of points for a terminal, the
// labs' as labs writes them (nil: in full).
func WriteCompact(w io.Writer, points []results.Point, a *analysis.Analysis, labs func(io.Writer, []results.Point) error) error {
	var parts []func() error
	if len(a.Ranges) > 0 {
		parts = append(parts, func() error { return writeShop(w, a) })
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
			return WritePrediction(w, predicted, d.Prediction.Checks)
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

// rowName names a compact table's row: mode, race, load and machine, the
// load in short, "fifo, open loop of 800 orders/s, 2 servers".
func rowName(r analysis.RangeRow) string {
	name := r.Mode
	if r.Races {
		name += " (data race)"
	}
	if l := r.Load; l != nil {
		var parts []string
		if r.Series && r.Policies && l.Sched != "" {
			parts = append(parts, l.Sched)
		}
		if l.Rate > 0 {
			parts = append(parts, "open loop of "+format.Number(l.Rate)+" orders/s")
		}
		switch {
		case l.PerCPU:
			if r.Series {
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
		name += " (" + strings.Join(parts, ", ") + ")"
	}
	if r.Host != "" {
		name += " on " + r.Host
	}
	return name
}

// writeStudies writes the studies' compact table.
func writeStudies(w io.Writer, t analysis.StudyTable) error {
	width := format.Width(w)
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("study %s, %s: %s, the median of each variant's runs (no causal profile: a limit is named only by experiment)",
		strings.Join(t.Studies, ", "), MeasuredOnHosts(t.Hosts), format.Count(t.Points, "point")), width, "  "))
	sources := len(t.Hosts) > 1
	// The meter last, under its row where the columns leave it too little room.
	par := slices.ContainsFunc(t.Rows, func(r analysis.StudyRow) bool { return r.Par != r.CPUs })
	on := []bool{true, true, par, t.Reps, t.Open, t.Open, true, true, true, true, true, sources, true}
	tab := format.Table{Align: []format.Align{format.Right}, Indent: true, Ragged: true, Width: width}
	tab.Row(cellsOn(on, "variant", "cpus", "par", "runs", "rate/s", "drops", "throughput", "of the most", "p50", "p99", "cpu util",
		"source", "most used meter (held, wait)")...)
	for _, r := range t.Rows {
		share := "-"
		if r.Share > 0 {
			share = "×" + format.Sig(r.Share, 2)
		}
		tab.Row(cellsOn(on, r.Variant, strconv.Itoa(r.CPUs), strconv.Itoa(r.Par), strconv.Itoa(r.Runs), fmt.Sprintf("%g", r.Rate), strconv.FormatInt(r.Drops, 10),
			format.Rate(r.Throughput, r.Unit), share, format.Wait(r.P50), format.Wait(r.P99), fmt.Sprintf("%.0f%%", 100*r.Util), r.Origin, r.Meter)...)
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
