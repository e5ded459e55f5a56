package text

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/analysis"
)

// WriteAdviceJSON writes the advice as one indented JSON object.
func WriteAdviceJSON(w io.Writer, a *analysis.Advice) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(a)
}

// WriteAdvice writes the answer, the model (or calibration) it used, the
// system as it is, and the table of every change tried.
func WriteAdvice(w io.Writer, a *analysis.Advice) error {
	wrap := func(s string) string { return format.Wrap(s, format.Width(w), "") }
	fmt.Fprintln(w, wrap(a.Answer))
	setting := cmp.Or(a.Calibration, "the "+a.Model)
	// The setting is a caption a reader may skip, long under the go
	// policy (its calibration in words): a paragraph of its own.
	fmt.Fprintf(w, "\n%s\n\n%s\n\n", wrap(setting), wrap(fmt.Sprintf("%s now: %.0f %s, median latency %s, p99 %s. %s",
		a.System, a.Now.Throughput, a.Unit, format.Wait(a.Now.P50Ms), format.Wait(a.Now.P99Ms), a.Now.Bottleneck.Text)))
	// Each change and what it makes of the system go under its row's
	// figures, where any length fits.
	t := format.Table{Ragged: true}
	t.Row("rank", "throughput", "gain", "p50 ms", "p99 ms", "latency", "cost")
	const indent = "      "
	for i, o := range a.Options {
		t.Row(fmt.Sprint(i+1), fmt.Sprintf("%.0f", o.Throughput), format.WholeGain(o.ThroughputGain),
			format.Ms(o.P50Ms), format.Ms(o.P99Ms), format.WholeGain(-o.LatencyGain), o.Cost.String())
		t.Line(indent + format.Wrap(o.Change+", as "+o.As, format.Width(w)-len(indent), indent))
	}
	return t.Write(w)
}
