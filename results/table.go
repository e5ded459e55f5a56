package results

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteTable writes an aligned table for people: one row per point, with
// the latency percentiles, CPU utilization and the busiest machine. Columns
// that would be empty for every row (drops in a closed loop, the source when
// all points share one, the repetition without --count) are left out. Where
// there are model points, the source column says which rows they are, and
// a bound column gives the model's throughput bound and what sets it.
//
// Labs' points (Lab set) are a table of their own after the shop's, one
// per lab, with the lab's metrics as columns; Go benchmarks' points
// (Bench set) one after those, with every unit of their lines as columns.
func WriteTable(w io.Writer, points []Point) error {
	var shop, benchmarks []Point
	var labs []string
	byLab := map[string][]Point{}
	for _, p := range points {
		if p.Bench != nil {
			benchmarks = append(benchmarks, p)
			continue
		}
		if p.Lab == "" {
			shop = append(shop, p)
			continue
		}
		if _, ok := byLab[p.Lab]; !ok {
			labs = append(labs, p.Lab)
		}
		byLab[p.Lab] = append(byLab[p.Lab], p)
	}
	if len(shop) > 0 {
		if err := writeShopTable(w, shop); err != nil {
			return err
		}
	}
	for i, l := range labs {
		if i > 0 || len(shop) > 0 {
			fmt.Fprintln(w)
		}
		if err := writeLabTable(w, l, byLab[l]); err != nil {
			return err
		}
	}
	if len(benchmarks) > 0 {
		if len(shop)+len(labs) > 0 {
			fmt.Fprintln(w)
		}
		return writeBenchTable(w, benchmarks)
	}
	return nil
}

// writeLabTable writes one lab's points: variant, CPUs, goroutines,
// throughput, the median and spread of its runs, CPU use and the lab's
// metrics, a column each.
func writeLabTable(w io.Writer, lab string, points []Point) error {
	width := len("variant")
	var keys []string
	for _, p := range points {
		width = max(width, len(p.Variant))
		for k := range p.Metrics {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	fmt.Fprintf(w, "lab %s\n", lab)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{fmt.Sprintf("%-*s", width, "variant"), "cpus", "par", "throughput", "p50 ms", "min ms", "max ms", "cpu util"}
	head = append(head, keys...)
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, p := range points {
		row := []string{fmt.Sprintf("%-*s", width, p.Variant), fmt.Sprint(p.CPUs), fmt.Sprint(p.Par),
			FormatRate(p.Throughput, p.Unit), FormatMs(p.Latency.P50), FormatMs(p.Latency.Min), FormatMs(p.Latency.Max),
			fmt.Sprintf("%.0f%%", 100*p.Util)}
		for _, k := range keys {
			v, ok := p.Metrics[k]
			if !ok {
				row = append(row, "-")
				continue
			}
			row = append(row, fmt.Sprintf("%.4g", v))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

// FormatRate writes a throughput with an SI prefix where it is large,
// "1.03 G ints/s", so that a lab's rates read at a glance.
func FormatRate(v float64, unit string) string {
	for _, p := range []struct {
		f float64
		s string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.f {
			return fmt.Sprintf("%.3g %s%s", v/p.f, p.s, unit)
		}
	}
	return fmt.Sprintf("%.3g %s", v, unit)
}

// writeShopTable writes the coffee shop's points.
func writeShopTable(w io.Writer, points []Point) error {
	openLoop, reps, model, origins, modeWidth := false, false, false, map[string]bool{}, len("variant")
	limits, studies := false, true
	for _, p := range points {
		studies = studies && p.Study != ""
		limits = limits || p.Bottleneck != nil
		openLoop = openLoop || p.Rate > 0
		reps = reps || p.Rep > 0
		model = model || p.IsModel()
		origins[p.Origin()] = true
		modeWidth = max(modeWidth, len(p.Mode))
	}
	// A table of model points alone still says that they are the model's.
	showSource := len(origins) > 1 || model
	// Numbers align right; padding the mode to the widest one makes its
	// column read left-aligned all the same.
	left := func(s string) string { return fmt.Sprintf("%-*s", modeWidth, s) }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	mode := "mode"
	if studies { // a study's modes are its variants
		mode = "variant"
	}
	head := []string{left(mode), "cpus", "par"}
	if reps {
		head = append(head, "rep")
	}
	if openLoop {
		head = append(head, "rate/s", "drops")
	}
	head = append(head, "throughput")
	if model {
		head = append(head, "bound")
	}
	head = append(head, "mean ms", "p05 ms", "p50 ms", "p95 ms", "p99 ms", "cpu util")
	if limits {
		head = append(head, "limited by (use, bound)")
	} else {
		head = append(head, "busiest machine (busy, mean wait)")
	}
	if showSource {
		head = append(head, "source")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, p := range points {
		row := []string{left(p.Mode), fmt.Sprint(p.CPUs), fmt.Sprint(p.Par)}
		if reps {
			row = append(row, fmt.Sprint(max(p.Rep, 1)))
		}
		if openLoop {
			row = append(row, fmt.Sprintf("%.0f", p.Rate), fmt.Sprint(p.Drops))
		}
		row = append(row, fmt.Sprintf("%.1f %s", p.Throughput, p.Unit))
		if model {
			row = append(row, FormatBound(p.Bounds))
		}
		row = append(row,
			FormatMs(p.Latency.Mean),
			FormatMs(p.Latency.P05),
			FormatMs(p.Latency.P50),
			FormatMs(p.Latency.P95),
			FormatMs(p.Latency.P99),
			fmt.Sprintf("%.0f%%", 100*p.Util))
		if limits {
			row = append(row, FormatBottleneck(p.Bottleneck))
		} else {
			row = append(row, busiest(p.Machines))
		}
		if showSource {
			row = append(row, OriginLabel(p))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
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

// FormatBottleneck says briefly what limits a point: "grinder 98%, 1000".
func FormatBottleneck(b *Bottleneck) string {
	if b == nil {
		return "-"
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

// FormatMs formats milliseconds for people: two decimals, or three
// significant digits where two decimals would show nothing (the harness's
// own no-op takes nanoseconds).
func FormatMs(v float64) string {
	if v >= 0.1 || v == 0 {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}
