package calibrate

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// distNames are the names of the measured distributions (Dists) of the
// costs Rows lists; the spin window, found by bisection, has none.
var distNames = map[string]string{"wake": "wake_ns", "spin wake": "spin_wake_ns", "switch": "switch_ns",
	"mutex handoff": "mutex_handoff_ns", "chan handoff": "chan_handoff_ns", "buf chan handoff": "buf_chan_handoff_ns", "runnext grace": "runnext_grace_ns"}

// WriteTable writes the costs as a small table, each with its median, its
// 95 % interval and its distribution's 5th and 95th percentiles, then
// where and when they were measured and how busy the machine was.
func (c Calibration) WriteTable(out io.Writer) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cost\tmedian\t95% interval\tp5\tp95\t")
	for _, r := range c.Rows() {
		p5, p95 := "-", "-"
		if d := c.Dists[distNames[r.Name]]; len(d) == 101 {
			p5, p95 = d[5].String(), d[95].String()
		}
		fmt.Fprintf(tw, "%s\t%v\t%v – %v\t%s\t%s\t\n", r.Name, r.Median, r.Lo, r.Hi, p5, p95)
	}
	tw.Flush()
	when := "an unknown date"
	if !c.Date.IsZero() {
		when = c.Date.UTC().Format("2006-01-02 15:04 MST")
	}
	fmt.Fprintf(out, "%d repeats of %d samples each on %s (%s, %s), %s; other processes used %.2f CPUs meanwhile",
		max(c.Repeats, 1), c.Samples, c.Host.Name, c.Host.CPUModel, c.Host.GoVersion, when, c.Others)
	if c.Forced {
		fmt.Fprint(out, "; saved with --force")
	}
	fmt.Fprintln(out)
	if c.Note != "" {
		fmt.Fprintf(out, "note: %s\n", c.Note)
	}
}
