package results

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes an aligned table for people: one row per point, with
// the latency percentiles, CPU utilization and the busiest machine. Columns
// that would be empty for every row (drops in a closed loop, the source when
// all points share one, the repetition without --count) are left out. Where
// there are model points, the source column says which rows they are, and
// a bound column gives the model's throughput bound and what sets it.
func WriteTable(w io.Writer, points []Point) error {
	openLoop, reps, model, origins, modeWidth := false, false, false, map[string]bool{}, len("mode")
	for _, p := range points {
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
	head := []string{left("mode"), "cpus", "par"}
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
	head = append(head, "mean ms", "p05 ms", "p50 ms", "p95 ms", "p99 ms", "cpu util", "busiest machine (busy, mean wait)")
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
			fmt.Sprintf("%.0f%%", 100*p.Util),
			busiest(p.Machines))
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
