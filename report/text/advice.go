package text

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// WriteAdviceJSON writes the advice as one JSON object, with its answer.
func WriteAdviceJSON(w io.Writer, a *analysis.Advice) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		*analysis.Advice
		Answer string `json:"answer"`
	}{a, AdviceAnswer(a)})
}

// minGain is the least throughput gain that counts, as limits.MinGain.
const minGain = 0.01

// WriteAdvice writes the answer, the costs the model rests on (cal, nil
// under fifo), and the changes that help, best first, the others counted.
func WriteAdvice(w io.Writer, a *analysis.Advice, cal *results.Calibration) error {
	width := format.Width(w)
	fmt.Fprintln(w, format.Wrap(AdviceAnswer(a), width, ""))
	if cal != nil {
		fmt.Fprintln(w, format.Wrap(CostsLine(*cal), width, "  "))
	}
	t := format.Table{Ragged: true, Width: width}
	t.Row("gain", a.Unit, "p50 ms", "change: its cost")
	rest := 0
	for _, o := range a.Options {
		if o.ThroughputGain <= minGain && o.LatencyGain < 0.05 {
			rest++
			continue
		}
		change := OptionChange(o)
		if o.Kind == analysis.Structural {
			change += " (" + Becomes(o.Becomes) + ")"
		}
		t.Row(format.WholeGain(o.ThroughputGain), fmt.Sprintf("%.0f", o.Throughput), format.Ms(o.P50Ms), change+": "+o.Cost.String())
	}
	fmt.Fprintln(w)
	if rest < len(a.Options) {
		if err := t.Write(w); err != nil {
			return err
		}
	}
	if rest > 0 {
		fmt.Fprintln(w, format.Wrap(fmt.Sprintf("The other %s tried gain 1 %% or less and cut no latency (--format json lists them).",
			format.Count(rest, "change")), width, "  "))
	}
	return nil
}

// AdviceAnswer says what limits the system and what would help most.
func AdviceAnswer(a *analysis.Advice) string {
	now := fmt.Sprintf("%s makes %.0f %s, limited by %s", a.System, a.Now.Throughput, a.Unit, LimitedBy(a.Now.Bottleneck))
	if len(a.Options) == 0 || a.Options[0].ThroughputGain <= minGain {
		best := ""
		for _, o := range a.Options {
			if o.LatencyGain >= 0.05 && o.ThroughputGain > -0.01 {
				best = fmt.Sprintf("; %s (%s) cuts p50 by %.0f %%", OptionChange(o), Becomes(o.Becomes), 100*o.LatencyGain)
				break
			}
		}
		return fmt.Sprintf("%s. None of the %d changes tried raises throughput by more than 1 %%%s.", now, len(a.Options), best)
	}
	o := a.Options[0]
	latency := fmt.Sprintf("%.0f %% more", -100*o.LatencyGain)
	if g := o.LatencyGain; math.Abs(g) < 0.005 {
		latency = "unchanged"
	} else if g > 0 {
		latency = fmt.Sprintf("%.0f %% less", 100*g)
	}
	return fmt.Sprintf("%s. Best change: %s (%s): %.0f %s (%s), p50 %s (%s); it costs %s.",
		now, OptionChange(o), Becomes(o.Becomes), o.Throughput, a.Unit, format.Gain(o.ThroughputGain), format.Wait(o.P50Ms), latency, o.Cost)
}

// LimitedBy says a verdict briefly: "the grinder (another grinder: +13 %)".
func LimitedBy(b *results.Bottleneck) string {
	switch {
	case b == nil:
		return "nothing known"
	case b.Resource == "arrivals":
		return "its arrivals (it keeps up; no relief raises throughput)"
	case b.Resource == "none":
		return "nothing any relief tried can lift by more than 1 %"
	case b.Combined != nil:
		return fmt.Sprintf("%s (no single relief gains more than 1 %%; %s: %s)", BottleneckName(b), ChangeText(*b.Combined), format.Gain(b.Gain))
	}
	best := b.Experiments[0]
	return fmt.Sprintf("%s (%s: %s)", BottleneckName(b), ChangeText(best), format.Gain(best.Gain))
}
