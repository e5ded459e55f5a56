package calibrate

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/curves"
)

// WriteTable writes the costs as a small table, then where and when they
// were measured and how busy the machine was.
func (c Calibration) WriteTable(out io.Writer) {
	t := format.Table{Align: []format.Align{format.Right}, Indent: true}
	t.Row("cost", "median", "95% interval", "p5", "p95")
	for _, r := range c.Rows() {
		show := func(d time.Duration) string { return costText(r.Name, d) }
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

// writeSpan writes each cost's spread over the earlier calibrations, and
// which they are.
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
		show := func(d time.Duration) string { return costText(name, d) }
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

// costText writes cost name's d (by its name or flag): a wake-up's 0 is
// one within the runnext grace.
func costText(name string, d time.Duration) string {
	if d <= 0 && (name == "wake" || name == "spin wake" || name == "spin-wake") {
		return "≈0 (in the grace)"
	}
	return d.String()
}
