package results

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
)

// WriteTable writes an aligned table for people: one row per point, with
// the latency percentiles, CPU utilization and the machine held the most
// of the time. Columns that would be empty for every row (drops in a closed
// loop, the source when all points share one, the repetition without
// --count) are left out. Where there are model points, the source column
// says which rows they are, and a bound column gives the model's
// throughput bound and what sets it.
//
// Studies' points (package study) are a table of their own after the
// shop's, whose rows are the variants and whose last column describes the
// meter used the most, as measured: nothing there says what limits the
// user's code. Labs' points are a table of their
// own after those, one per lab, with the lab's metrics as columns; Go
// benchmarks' points one after those, with every unit of their lines as
// columns.
func WriteTable(w io.Writer, points []Point) error {
	others, benchmarks := SplitBench(points)
	others, labs, byLab := SplitLabs(others)
	var shop, studies []Point
	for _, p := range others {
		if p.Kind == KindStudy {
			studies = append(studies, p)
		} else {
			shop = append(shop, p)
		}
	}
	if len(shop) > 0 {
		if err := writeShopTable(w, shop, false); err != nil {
			return err
		}
	}
	if len(studies) > 0 {
		if len(shop) > 0 {
			fmt.Fprintln(w)
		}
		if err := writeShopTable(w, studies, true); err != nil {
			return err
		}
	}
	for i, l := range labs {
		if i > 0 || len(shop)+len(studies) > 0 {
			fmt.Fprintln(w)
		}
		if err := writeLabTable(w, l, byLab[l]); err != nil {
			return err
		}
	}
	if len(benchmarks) > 0 {
		if len(others) > 0 {
			fmt.Fprintln(w)
		}
		return writeBenchTable(w, benchmarks)
	}
	return nil
}

// SplitBench separates Go benchmarks' points from the others.
func SplitBench(points []Point) (others, benches []Point) {
	for _, p := range points {
		if p.Kind == KindBench {
			benches = append(benches, p)
		} else {
			others = append(others, p)
		}
	}
	return others, benches
}

// SplitLabs separates the labs' points from the others, the labs by name
// in the order they first appear.
func SplitLabs(points []Point) (others []Point, labs []string, byLab map[string][]Point) {
	byLab = map[string][]Point{}
	for _, p := range points {
		if p.Kind != KindLab {
			others = append(others, p)
			continue
		}
		if _, ok := byLab[p.Lab.Name]; !ok {
			labs = append(labs, p.Lab.Name)
		}
		byLab[p.Lab.Name] = append(byLab[p.Lab.Name], p)
	}
	return others, labs, byLab
}

// writeLabTable writes one lab's points: variant, CPUs, goroutines,
// throughput, the median and spread of its runs, CPU use and the lab's
// metrics, a column each, every one in readable units.
func writeLabTable(w io.Writer, lab string, points []Point) error {
	keys := MetricNames(points)
	fmt.Fprintf(w, "lab %s\n", lab)
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true}
	head := []string{"variant", "cpus", "par", "throughput", "p50", "min", "max", "cpu util"}
	for _, k := range keys {
		head = append(head, string(k))
	}
	t.Row(head...)
	disturbed := slices.ContainsFunc(points, Point.IsDisturbed)
	for _, p := range points {
		row := []string{p.Lab.Variant, fmt.Sprint(p.CPUs), fmt.Sprint(p.Par),
			format.Rate(p.Throughput, p.Unit) + disturbedMark(p, disturbed), format.Wait(p.Latency.P50), format.Wait(p.Latency.Min), format.Wait(p.Latency.Max),
			fmt.Sprintf("%.0f%%", 100*p.Util)}
		for _, k := range keys {
			v, ok := p.Lab.Metrics[k]
			if !ok {
				row = append(row, "-")
				continue
			}
			row = append(row, format.Metric(string(k), v))
		}
		t.Row(row...)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	writeDisturbedNote(w, points)
	return nil
}

// MetricNames lists the metrics of lab points, each once, in name order.
func MetricNames(points []Point) []Metric {
	var keys []Metric
	for _, p := range points {
		if p.Lab == nil {
			continue
		}
		for k := range p.Lab.Metrics {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// writeShopTable writes the coffee shop's points, or, with studies, a
// study's: their modes are its variants, and in place of what limits
// each point the meter used the most (see BusiestMeter).
func writeShopTable(w io.Writer, points []Point, studies bool) error {
	openLoop, reps, model, origins := false, false, false, map[string]bool{}
	limits, bands, notes, disturbed := false, false, false, false
	for _, p := range points {
		disturbed = disturbed || p.IsDisturbed()
		bands = bands || p.Band != nil
		notes = notes || Notes(p) != ""
		limits = limits || p.Bottleneck != nil && !studies
		openLoop = openLoop || p.Rate > 0
		reps = reps || p.Rep > 0
		model = model || p.IsModel()
		origins[p.Origin()] = true
	}
	// A table of model points alone still says that they are the model's.
	showSource := len(origins) > 1 || model
	mode := "mode"
	if studies { // a study's modes are its variants
		mode = "variant"
	}
	head := []string{mode, "cpus", "par"}
	if reps {
		head = append(head, "rep")
	}
	if openLoop {
		head = append(head, "rate/s", "drops")
	}
	head = append(head, "throughput")
	if bands {
		head = append(head, "range (go policy)")
	}
	if model {
		head = append(head, "bound")
	}
	head = append(head, "mean ms", "p05 ms", "p50 ms", "p95 ms", "p99 ms", "cpu util")
	switch {
	case studies:
		head = append(head, "most used meter (held, mean wait)")
	case limits:
		head = append(head, "limited by (best relief)")
	default:
		head = append(head, "most held machine (held, mean wait)")
	}
	if showSource {
		head = append(head, "source")
	}
	if notes {
		head = append(head, "notes")
	}
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true}
	t.Row(head...)
	for _, p := range points {
		row := []string{p.Mode, fmt.Sprint(p.CPUs), fmt.Sprint(p.Par)}
		if reps {
			row = append(row, fmt.Sprint(max(p.Rep, 1)))
		}
		if openLoop {
			row = append(row, fmt.Sprintf("%.0f", p.Rate), fmt.Sprint(p.Drops))
		}
		row = append(row, fmt.Sprintf("%.1f %s", p.Throughput, p.Unit)+disturbedMark(p, disturbed))
		if bands {
			row = append(row, FormatBand(p.Band))
		}
		if model {
			row = append(row, FormatBound(p.Bounds))
		}
		row = append(row,
			format.Ms(p.Latency.Mean),
			format.Ms(p.Latency.P05),
			format.Ms(p.Latency.P50),
			format.Ms(p.Latency.P95),
			format.Ms(p.Latency.P99),
			fmt.Sprintf("%.0f%%", 100*p.Util))
		switch {
		case studies:
			row = append(row, BusiestMeter(p))
		case limits:
			row = append(row, FormatBottleneck(p.Bottleneck))
		default:
			row = append(row, busiest(p.Machines()))
		}
		if showSource {
			row = append(row, OriginLabel(p))
		}
		if notes {
			row = append(row, Notes(p))
		}
		t.Row(row...)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	writeDisturbedNote(w, points)
	for _, line := range CalibrationLines(points) {
		fmt.Fprintf(w, "go policy: %s\n", line)
	}
	return nil
}

// disturbedMark is the mark after a disturbed point's throughput, and
// the room it takes after the others' where any is marked (any).
func disturbedMark(p Point, any bool) string {
	switch {
	case p.IsDisturbed():
		return " *"
	case any:
		return "  "
	}
	return ""
}

// writeDisturbedNote explains the table's mark, if any point has it.
func writeDisturbedNote(w io.Writer, points []Point) {
	n, attempts := 0, 0
	for _, p := range points {
		if p.IsDisturbed() {
			n++
			attempts = max(attempts, p.Attempts)
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "* disturbed (%d of %d): other processes took more than %.1f CPU beyond the cores the point left free while it was measured; its numbers say more about the machine than about the design", n, len(points), DisturbedCPUs)
	if attempts > 1 {
		fmt.Fprintf(w, " (each measured up to %d times, the least disturbed kept)", attempts)
	}
	fmt.Fprintln(w)
}

// FormatBand writes a band as "248–252/s, p50 4.10–8.20 ms"; "-" for none.
func FormatBand(b *Band) string {
	if b == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f–%.0f/s, p50 %s–%s ms", b.Throughput[0], b.Throughput[1], format.Ms(b.P50Ms[0]), format.Ms(b.P50Ms[1]))
}

// Notes says what a reader must know about a point beside its numbers:
// that it was measured or simulated with the talk's harness or an older
// runtime's scheduler, and what its Trust says of its window and bounds.
func Notes(p Point) string {
	var n []string
	if p.Harness == "talk" {
		n = append(n, "talk harness")
	}
	if p.Runtime != "" {
		n = append(n, p.Runtime+" runtime")
	}
	return strings.Join(append(n, trustNotes(p)...), "; ")
}

// CalibrationLines describes each distinct calibration the points used,
// in the order they first appear.
func CalibrationLines(points []Point) []string {
	var lines []string
	for _, p := range points {
		if p.Calibration == nil {
			continue
		}
		if l := p.Calibration.Line(); !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return lines
}

// OriginLabel is Origin for people: a model point's names its scheduling
// policy too, "model (fifo)"; one without a source is "(no source)".
func OriginLabel(p Point) string {
	switch {
	case p.IsModel() && p.Sched != "":
		return SourceModel + " (" + p.Sched + ")"
	case p.Origin() == "":
		return "(no source)"
	}
	return p.Origin()
}

// FormatBound formats a model's throughput bound and what sets it, as
// "1000.0 espresso"; "-" when there is none, as for a measurement, and
// "none" when the model found nothing to bound it.
func FormatBound(b *Bounds) string {
	switch {
	case b == nil:
		return "-"
	case b.ThroughputMax == 0:
		return "none"
	}
	return strings.TrimSpace(fmt.Sprintf("%.1f %s", b.ThroughputMax, b.Limit))
}

// FormatBottleneck says briefly what limits a point and what relieving it
// gains: "grinder +13%", "cpus+customers +25%", "grinder+espresso+steamer
// +50% together" (no single relief helps). A bottleneck from before causal
// profiles says its utilization and bound: "grinder 98%, 1000".
func FormatBottleneck(b *Bottleneck) string {
	if b == nil {
		return "-"
	}
	if b.Resource == "unknown" {
		return "unknown"
	}
	if len(b.Profile) > 0 {
		rs := b.Resources
		if len(rs) == 0 {
			rs = []string{b.Resource}
		}
		s := strings.Join(rs, "+")
		switch {
		case b.Combined != nil:
			s += fmt.Sprintf(" %+.0f%% together", 100*b.Gain)
		case b.Gain > 0:
			s += fmt.Sprintf(" %+.0f%%", 100*b.Gain)
		}
		return s
	}
	s := fmt.Sprintf("%s %.0f%%", b.Resource, 100*b.Utilization)
	if b.Bound > 0 {
		s += fmt.Sprintf(", %.0f", b.Bound)
	}
	return s
}

// busiest describes the machine with the highest busy fraction.
func busiest(ms []Machine) string {
	if len(ms) == 0 {
		return "-"
	}
	top := ms[0]
	for _, m := range ms[1:] {
		if m.BusyFrac > top.BusyFrac {
			top = m
		}
	}
	return fmt.Sprintf("%s %.0f%%, %.2f ms", top.Name, 100*top.BusyFrac, top.MeanWaitMs)
}
