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
// all points share one, the repetition without --count) are left out.
func WriteTable(w io.Writer, points []Point) error {
	openLoop, reps, sources, modeWidth := false, false, map[string]bool{}, len("mode")
	for _, p := range points {
		openLoop = openLoop || p.Rate > 0
		reps = reps || p.Rep > 0
		sources[p.Source] = true
		modeWidth = max(modeWidth, len(p.Mode))
	}
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
	head = append(head, "throughput", "mean ms", "p05 ms", "p50 ms", "p95 ms", "p99 ms", "cpu util", "busiest machine (busy, mean wait)")
	if len(sources) > 1 {
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
		row = append(row,
			fmt.Sprintf("%.1f %s", p.Throughput, p.Unit),
			FormatMs(p.Latency.Mean),
			FormatMs(p.Latency.P05),
			FormatMs(p.Latency.P50),
			FormatMs(p.Latency.P95),
			FormatMs(p.Latency.P99),
			fmt.Sprintf("%.0f%%", 100*p.Util),
			busiest(p.Machines))
		if len(sources) > 1 {
			row = append(row, p.Source)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
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
