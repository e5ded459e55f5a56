package calibrate

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteTable writes the costs as a small table, with the samples, the
// machine and how busy it was meanwhile.
func (c Calibration) WriteTable(out io.Writer) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "cost\tmedian\t")
	for _, r := range []struct {
		name string
		v    any
	}{
		{"switch", c.Costs.Switch}, {"wake", c.Costs.Wake}, {"spin wake", c.Costs.SpinWake},
		{"spin window", c.Costs.SpinWindow}, {"mutex handoff", c.Costs.MutexHandoff},
		{"chan handoff", c.Costs.ChanHandoff}, {"buf chan handoff", c.Costs.BufChanHandoff},
	} {
		fmt.Fprintf(w, "%s\t%v\t\n", r.name, r.v)
	}
	w.Flush()
	fmt.Fprintf(out, "%d samples each on %s, %s; other processes used %.2f CPUs meanwhile\n",
		c.Samples, c.Host.CPUModel, c.Host.GoVersion, c.Others)
	if c.Note != "" {
		fmt.Fprintf(out, "note: %s\n", c.Note)
	}
}
