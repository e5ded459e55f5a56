package verdict

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/results"
)

// IsDisturbed reports whether other processes took CPU from measured point
// p while it ran (causal.IsDisturbed).
func IsDisturbed(p results.Point) bool { return !p.IsModel() && causal.IsDisturbed(p) }

// WriteText writes the verdict for a terminal: its sentences, then a row
// per mode saying what limits it and what the best change gains.
func (v Verdict) WriteText(w io.Writer) error {
	if len(v.Counts) == 0 {
		return nil
	}
	for _, s := range v.Sentences() {
		if _, err := fmt.Fprintln(w, wrap(s, 110, "")); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "What limits each mode at the most CPUs it was run or predicted on, and the best change its causal profile tried:")
	width := 0
	for _, m := range v.Modes {
		width = max(width, len(m.Mode))
	}
	for _, m := range v.Modes {
		head := fmt.Sprintf("  %-*s  ", width, m.Mode)
		text := strings.ReplaceAll(wrap(m.Figures()+": "+m.Says(), 110-len(head), ""), "\n", "\n"+strings.Repeat(" ", len(head)))
		if _, err := fmt.Fprintln(w, head+text); err != nil {
			return err
		}
	}
	return nil
}

// wrap breaks s into lines of at most width, each after the first
// starting with indent.
func wrap(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = indent + word
			continue
		}
		if line == "" {
			line = word
		} else {
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// WriteCompact writes the short table of points for a terminal: every
// measured point of the shop, one row each, then the model's predictions
// summarized per mode as ranges over their CPU counts, with what limits
// them where; then the labs' tables, as results.WriteTable writes them.
// results.WriteTable writes every point in full.
func WriteCompact(w io.Writer, points []results.Point) error {
	shop, labs, byLab := results.SplitLabs(points)
	var measured, model []results.Point
	for _, p := range shop {
		if p.IsModel() {
			model = append(model, p)
		} else {
			measured = append(measured, p)
		}
	}
	wrote := false
	if len(measured) > 0 {
		if err := writeMeasured(w, measured); err != nil {
			return err
		}
		wrote = true
	}
	if len(model) > 0 {
		if wrote {
			fmt.Fprintln(w)
		}
		if err := writeModelRanges(w, model); err != nil {
			return err
		}
		wrote = true
	}
	for _, l := range labs {
		if wrote {
			fmt.Fprintln(w)
		}
		if err := results.WriteTable(w, byLab[l]); err != nil {
			return err
		}
		wrote = true
	}
	return nil
}

func writeMeasured(w io.Writer, points []results.Point) error {
	origins, reps, open, disturbed := map[string]bool{}, false, false, 0
	for _, p := range points {
		origins[p.Origin()] = true
		reps = reps || p.Rep > 0
		open = open || p.Rate > 0
	}
	var hosts []string
	for _, p := range points {
		if o := p.Origin(); origins[o] {
			hosts = append(hosts, o)
			delete(origins, o)
		}
	}
	fmt.Fprintf(w, "measured on %s: %d points\n", strings.Join(hosts, ", "), len(points))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "mode\tcpus\tpar\t"
	if reps {
		head += "rep\t"
	}
	if open {
		head += "rate/s\tdrops\t"
	}
	head += "throughput\tp50 ms\tp99 ms\tcpu util\tlimited by\t"
	if len(hosts) > 1 {
		head += "source\t"
	}
	fmt.Fprintln(tw, head)
	for _, p := range points {
		row := fmt.Sprintf("%s\t%d\t%d\t", p.Mode, p.CPUs, p.Par)
		if reps {
			row += fmt.Sprintf("%d\t", max(p.Rep, 1))
		}
		if open {
			row += fmt.Sprintf("%g\t%d\t", p.Rate, p.Drops)
		}
		limit := LimitOf(p.Bottleneck).Named
		if IsDisturbed(p) {
			limit += " (disturbed)"
			disturbed++
		}
		row += fmt.Sprintf("%s\t%s\t%s\t%.0f%%\t%s\t", results.FormatRate(p.Throughput, p.Unit), results.FormatMs(p.Latency.P50), results.FormatMs(p.Latency.P99), 100*p.Util, limit)
		if len(hosts) > 1 {
			row += p.Origin() + "\t"
		}
		fmt.Fprintln(tw, row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if disturbed > 0 {
		fmt.Fprintf(w, "(disturbed: other processes took CPU while the point was measured; it says little about the design)\n")
	}
	return nil
}

// loadText says a point's load and policy in short: "go, 4 customers",
// "fifo, 800 orders/s, 2 servers".
func loadText(p results.Point) string {
	parts := []string{p.Sched}
	if p.Rate > 0 {
		parts = append(parts, fmt.Sprintf("%g orders/s", p.Rate))
	}
	switch {
	case p.Par == p.CPUs:
		parts = append(parts, "one per CPU")
	case p.Rate > 0:
		parts = append(parts, fmt.Sprintf("%d servers", p.Par))
	default:
		parts = append(parts, fmt.Sprintf("%d customers", p.Par))
	}
	if p.Harness != "" {
		parts = append(parts, p.Harness+" harness")
	}
	return strings.Join(parts, ", ")
}

// writeModelRanges summarizes the model's points per mode (and policy and
// load, where they differ): the CPU counts, the throughput and median
// latency from least to most, and what limits the mode over which counts.
func writeModelRanges(w io.Writer, points []results.Point) error {
	type group struct {
		mode, id string
		ps       []results.Point
	}
	var groups []*group
	index := map[string]*group{}
	ids := map[string][]string{} // a mode's series
	for _, p := range points {
		id := seriesID(p)
		if !slices.Contains(ids[p.Mode], id) {
			ids[p.Mode] = append(ids[p.Mode], id)
		}
		k := p.Mode + "\x00" + id
		g, ok := index[k]
		if !ok {
			g = &group{mode: p.Mode, id: id}
			index[k] = g
			groups = append(groups, g)
		}
		g.ps = append(g.ps, p)
	}
	scheds := map[string]bool{}
	for _, p := range points {
		scheds[p.Sched] = true
	}
	what := "model"
	if len(scheds) == 1 && points[0].Sched != "" {
		what += " (" + points[0].Sched + ")"
	}
	fmt.Fprintf(w, "predicted by the %s: %d points, per mode\n", what, len(points))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mode\tcpus\tthroughput\tp50 ms\tlimited by")
	for _, g := range groups {
		name := g.mode
		if len(ids[g.mode]) > 1 {
			name += " (" + loadText(g.ps[0]) + ")"
		}
		grid := NewGrid(g.ps)
		lo, hi, p50lo, p50hi := 0.0, 0.0, 0.0, 0.0
		var limits []string
		lastClass, from, prev := "", 0, 0
		flush := func() {
			if lastClass == "" {
				return
			}
			c, _ := grid.At(g.mode, prev)
			limits = append(limits, fmt.Sprintf("%s (%s)", c.Shown().Limit.Named, cpuSpan(from, prev)))
		}
		for i, n := range grid.CPUs {
			c, _ := grid.At(g.mode, n)
			e := c.Shown()
			if i == 0 {
				lo, hi, p50lo, p50hi = e.Throughput, e.Throughput, e.P50, e.P50
			}
			lo, hi = min(lo, e.Throughput), max(hi, e.Throughput)
			p50lo, p50hi = min(p50lo, e.P50), max(p50hi, e.P50)
			if e.Limit.Class != lastClass {
				flush()
				lastClass, from = e.Limit.Class, n
			}
			prev = n
		}
		flush()
		unit := g.ps[0].Unit
		fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\n", name, cpuSpan(grid.CPUs[0], grid.CPUs[len(grid.CPUs)-1]),
			rateRange(lo, hi), unit, msRange(p50lo, p50hi), strings.Join(limits, ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range results.CalibrationLines(points) {
		fmt.Fprintf(w, "go policy: %s\n", l)
	}
	return nil
}
