package calibrate

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/curves"
)

// WriteTable writes the costs as a small table, each with its median, its
// 95 % interval and its distribution's 5th and 95th percentiles, then
// where and when they were measured and how busy the machine was.
func (c Calibration) WriteTable(out io.Writer) {
	if c.Inferred != nil {
		c.writeInferred(out)
		return
	}
	t := format.Table{Align: []format.Align{format.Right}, Indent: true}
	t.Row("cost", "median", "95% interval", "p5", "p95")
	for _, r := range c.Rows() {
		show := func(d time.Duration) string { return d.String() }
		if r.Name == "wake" || r.Name == "spin wake" {
			show = wakeText
		}
		p5, p95 := "-", "-"
		// A distribution is named as sim.Costs' JSON names its cost.
		if d := c.Dists[strings.ReplaceAll(r.Name, " ", "_")+"_ns"]; len(d) == 101 {
			p5, p95 = show(d[5]), show(d[95])
		}
		t.Row(r.Name, show(r.Median), show(r.Lo)+" – "+show(r.Hi), p5, p95)
	}
	t.Write(out)
	when := "an unknown date"
	if !c.Date.IsZero() {
		when = c.Date.UTC().Format("2006-01-02 15:04 MST")
	}
	line := fmt.Sprintf("%d repeats of %d samples each on %s (%s, %s), %s; other processes used %.2f CPUs meanwhile",
		max(c.Repeats, 1), c.Samples, c.Host.Name, c.Host.CPUModel, c.Host.GoVersion, when, c.Others)
	if c.Forced {
		line += "; saved with --force"
	}
	if c.disturbed() && len(c.Earlier) == 0 {
		line += "; a prediction sets it aside for " + ReferenceHost + "'s costs, no quiet calibration of this machine being kept"
	}
	fmt.Fprintln(out, format.Wrap(line, format.Width(out), "  "))
	if c.Note != "" {
		fmt.Fprintln(out, format.Wrap("note: "+c.Note, format.Width(out), "  "))
	}
	if cv := c.Curves; cv != nil {
		fmt.Fprintf(out, "contention curves: %d configurations on 1–%d CPUs\n", len(cv.Points)/len(curves.Counts(cv.MaxCPUs())), cv.MaxCPUs())
	}
	if len(c.Earlier) > 0 {
		c.writeSpan(out)
	}
}

// writeSpan writes, for each cost, the least and the most of the
// calibrations' medians and the range a band spans (Span), then which
// calibrations they are.
func (c Calibration) writeSpan(out io.Writer) {
	n := len(c.Earlier)
	if c.disturbed() {
		c = c.Hedged() // the quiet ones alone
	}
	lo, hi := c.Span()
	head := fmt.Sprintf("with the %d earlier calibrations of this machine it carries, which a band spans too:", n)
	if c.SetAside != nil {
		head = fmt.Sprintf("with the %d earlier quiet calibrations of this machine it carries; a prediction sets this one aside for the newest, its band spanning them all:", n)
	}
	fmt.Fprintf(out, "\n%s\n", format.Wrap(head, format.Width(out), ""))
	t := format.Table{Align: []format.Align{format.Right}, Indent: true}
	t.Row("cost", "medians", "band spans")
	for _, name := range costFlags() {
		least, most := *Field(&c.Costs, name), *Field(&c.Costs, name)
		for _, e := range c.Earlier {
			least, most = min(least, *Field(&e.Costs, name)), max(most, *Field(&e.Costs, name))
		}
		show := func(d time.Duration) string { return d.String() }
		if name == "wake" || name == "spin-wake" {
			show = wakeText
		}
		t.Row(strings.ReplaceAll(name, "-", " "), show(least)+" – "+show(most), show(*Field(&lo, name))+" – "+show(*Field(&hi, name)))
	}
	t.Write(out)
	dates := make([]string, 0, n)
	if c.SetAside != nil {
		dates = append(dates, fmt.Sprintf("%s (%.2f CPUs)", c.Date.UTC().Format("2006-01-02 15:04"), c.Others))
	}
	for _, e := range c.Earlier {
		dates = append(dates, fmt.Sprintf("%s (%.2f CPUs)", e.Date.UTC().Format("2006-01-02 15:04"), e.Others))
	}
	fmt.Fprintln(out, format.Wrap("earlier, newest first (UTC; other processes' use): "+strings.Join(dates, ", "), format.Width(out), "  "))
}

// writeInferred writes each cost with its range and whether the points
// gave it, then what it was inferred from, the fit, and what was refused.
func (c Calibration) writeInferred(out io.Writer) {
	in := c.Inferred
	t := format.Table{Align: []format.Align{format.Right}, Indent: true}
	t.Row("cost", "value", "range", "", "from")
	for _, r := range c.Rows() {
		from := "the points"
		switch {
		case slices.Contains(in.Kept, r.Flag()):
			from = "base (not constrained)"
		case !slices.Contains(in.Inferred, r.Flag()):
			from = "base (not searched)"
		}
		t.Row(r.Name, r.Median.String(), r.Lo.String()+" – "+r.Hi.String(), "", from)
	}
	t.Write(out)
	runtime := "today's runtime"
	if in.Runtime != "" {
		runtime = "the " + in.Runtime + " runtime"
	}
	ref := c.Ref()
	fmt.Fprintf(out, "%s: %d points (%d runs) on %s CPUs, simulated under %s; %d sets of costs tried\n",
		ref.For(), in.Points, in.Runs, format.Ints(in.CPUs, ", "), runtime, in.Evaluations)
	fmt.Fprintln(out, format.Wrap(in.rangeText(), format.Width(out), "  "))
	if len(in.Kept) > 0 {
		fmt.Fprintf(out, "not constrained by the points, kept from the base, %s: %s\n", in.Base.For(), strings.Join(in.Kept, ", "))
	}
	inside, worst, worstAt := 0, 0.0, ""
	for _, f := range in.Fit {
		if f.Throughput == 0 && f.P50 == 0 {
			inside++
		}
		for _, d := range []struct {
			v    float64
			what string
		}{{f.Throughput, "throughput"}, {f.P50, "p50"}} {
			if d.v > worst {
				worst, worstAt = d.v, fmt.Sprintf("%s of %s", d.what, f.Point)
			}
		}
	}
	fmt.Fprintf(out, "fit: %d of %d points predicted inside their runs' band (throughput and p50)", inside, len(in.Fit))
	if worst > 0 {
		fmt.Fprintf(out, "; the farthest outside, %.1f %%: %s", 100*worst, worstAt)
	}
	fmt.Fprintln(out)
	if b := c.Ref().Beyond; b != nil {
		fmt.Fprintf(out, "past the points: a band adds, %s (for 4 points in 5; %s)\n", b.Line(), beyondWorst(in.Beyond))
	}
	if len(in.Refused) > 0 {
		fmt.Fprintf(out, "refused %d:\n", len(in.Refused))
		for _, r := range in.Refused {
			fmt.Fprintf(out, "  %s\n", r)
		}
	}
}

// wakeText writes a wake-up's cost. A wake-up is timed less the runnext
// grace, so one that came within the grace is 0: no cost beyond the
// grace, not a wake-up that took no time.
func wakeText(d time.Duration) string {
	if d <= 0 {
		return "≈0 (in the grace)"
	}
	return d.String()
}

// beyondWorst names the point b's inference missed most.
func beyondWorst(b *Beyond) string {
	worst, at := 0.0, ""
	for _, f := range b.Fit {
		for _, d := range []struct {
			v    float64
			what string
		}{{f.Throughput, "throughput"}, {f.P50, "p50"}} {
			if d.v > worst {
				worst, at = d.v, d.what+" of "+f.Point
			}
		}
	}
	if at == "" {
		return "it missed none"
	}
	return fmt.Sprintf("the most it missed by, %.1f %%: %s", 100*worst, at)
}

// rangeText says which costs a cost's range holds: how much farther
// outside its runs' band than the inferred costs each point may lie, and
// where the runs' own spread widened that, the widest.
func (in *Inference) rangeText() string {
	wider, widest, widestAt := 0, 0.0, ""
	for _, f := range in.Fit {
		for _, d := range []struct {
			v    float64
			what string
		}{{f.ThroughputTolerance, "throughput"}, {f.P50Tolerance, "p50"}} {
			if d.v <= in.Tolerance {
				continue
			}
			wider++
			if d.v > widest {
				widest, widestAt = d.v, fmt.Sprintf("%s of %s", d.what, f.Point)
			}
		}
	}
	text := fmt.Sprintf("range: the costs that put no point more than %.3g %% farther outside its runs' band than the inferred ones do", 100*in.Tolerance)
	if wider > 0 {
		text = fmt.Sprintf("range: the costs that put no point farther outside its runs' band than the inferred ones do by more than %.3g %%, or by its runs' own spread where wider (%d of the %d throughputs and p50s; widest %.1f %%, %s)",
			100*in.Tolerance, wider, 2*len(in.Fit), 100*widest, widestAt)
	}
	return text + ", the others at their values"
}
