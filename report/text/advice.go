package text

import (
	"github.com/brewput/brewput/results/analysis"

	"encoding/json"
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// WriteAdviceJSON writes the advice as one indented JSON object.
func WriteAdviceJSON(w io.Writer, a *analysis.Advice) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(a)
}

// WriteAdvice writes the answer, then the model it used (and, where the
// caller said, its calibration), the system as it is with its causal
// verdict, and the table of every change tried.
func WriteAdvice(w io.Writer, a *analysis.Advice) error {
	fmt.Fprintln(w, a.Answer)
	setting := a.Calibration
	if setting == "" {
		setting = "the " + a.Model
	}
	fmt.Fprintf(w, "\n%s\n%s now: %.0f %s, median latency %.2f ms, p99 %.2f ms. %s\n\n",
		setting, a.System, a.Now.Throughput, a.Unit, a.Now.P50Ms, a.Now.P99Ms, a.Now.Bottleneck.Text)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tchange\tbecomes\tthroughput\tgain\tp50 ms\tp99 ms\tlatency\tcost\t")
	for i, o := range a.Options {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.0f\t%s\t%.2f\t%.2f\t%s\t%s\t\n", i+1, o.Change, o.As, o.Throughput,
			pctRounded(o.ThroughputGain), o.P50Ms, o.P99Ms, pctRounded(-o.LatencyGain), o.Cost)
	}
	return tw.Flush()
}

// pct writes a relative change as a signed percentage, with no "-0 %".
func pctRounded(f float64) string {
	v := math.Round(100 * f)
	if v == 0 {
		return "0 %"
	}
	return fmt.Sprintf("%+.0f %%", v)
}
