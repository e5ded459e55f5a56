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
// all points share one) are left out.
func WriteTable(w io.Writer, points []Point) error {
	openLoop, sources := false, map[string]bool{}
	for _, p := range points {
		openLoop = openLoop || p.Rate > 0
		sources[p.Source] = true
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"mode", "cpus", "par"}
	if openLoop {
		head = append(head, "rate/s", "drops")
	}
	head = append(head, "throughput", "mean ms", "p05 ms", "p50 ms", "p95 ms", "p99 ms", "cpu util", "busiest machine (busy, mean wait)")
	if len(sources) > 1 {
		head = append(head, "source")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, p := range points {
		row := []string{p.Mode, fmt.Sprint(p.CPUs), fmt.Sprint(p.Par)}
		if openLoop {
			row = append(row, fmt.Sprintf("%.0f", p.Rate), fmt.Sprint(p.Drops))
		}
		row = append(row,
			fmt.Sprintf("%.1f %s", p.Throughput, p.Unit),
			fmt.Sprintf("%.2f", p.Latency.Mean),
			fmt.Sprintf("%.2f", p.Latency.P05),
			fmt.Sprintf("%.2f", p.Latency.P50),
			fmt.Sprintf("%.2f", p.Latency.P95),
			fmt.Sprintf("%.2f", p.Latency.P99),
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
