package text

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/causal"
)

// WriteRounds says what a why check is about to measure, and for how long.
func WriteRounds(w io.Writer, r causal.Rounds) {
	limit := ""
	if r.Within > 0 {
		limit = fmt.Sprintf("; it stops at %v, rather than start a round that would not end in it", r.Within)
	}
	format.Lines(w, "")(fmt.Sprintf("measuring %s as it is and with %s, %d times each, in rounds: %s, about %v (revised as runs finish)%s", r.Mode,
		format.Count(r.Reliefs, "relief"), r.Count, format.Count(r.Runs, "run"), r.About.Round(time.Second), limit))
}

// ReliefsVerdict says what the measurements show, then what the model says.
func ReliefsVerdict(r causal.Reliefs) string {
	model := fmt.Sprintf("The model (%s): %s", cmp.Or(r.Sched, "fifo"), BottleneckText(r.Model))
	if r.Runs == 0 {
		return model
	}
	var best *causal.Relief
	agree, judged, measured, disturbedRuns := 0, 0, 0, r.Disturbed
	for i := range r.Reliefs {
		e := &r.Reliefs[i]
		if e.Runs == 0 {
			continue
		}
		measured++
		disturbedRuns += e.OwnDisturbed
		if e.Judged {
			judged++
			if e.Agree {
				agree++
			}
		}
		if e.Compared && e.Better && (best == nil || e.DeltaPct > best.DeltaPct) {
			best = e
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, measured %s on real CPUs: ", r.System, times(r.Runs))
	if best == nil {
		b.WriteString("no relief gains significantly.")
	} else {
		fmt.Fprintf(&b, "%s gains most, %s (%s), where the model predicted %s.", ChangeText(best.Change), format.Gain(best.Gain), gainRange(best.Lo, best.Hi), format.Gain(best.ModelGain))
	}
	switch {
	case measured == 0:
	case judged == 0:
		fmt.Fprintf(&b, " None of the %s could be held against the model's prediction: too few runs, or disturbed.", format.Count(measured, "experiment"))
	default:
		fmt.Fprintf(&b, " The model's prediction lies within the measured range, or its gain was measured, for %d of the %d experiments that could be judged", agree, judged)
		if judged < measured {
			fmt.Fprintf(&b, " (%d could not: too few runs, or disturbed)", measured-judged)
		}
		b.WriteString(".")
	}
	if disturbedRuns > 0 {
		fmt.Fprintf(&b, " %d of the %d runs were disturbed: other processes took more than %.1f CPU of the run's own meanwhile, so their figures say little.",
			disturbedRuns, r.Runs*(measured+1), results.DisturbedCPUs)
	}
	return b.String() + "\n" + model
}

// gainRange writes a gain's range: "+1.2 % to +3.4 %".
func gainRange(lo, hi float64) string {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "no interval: too few runs"
	}
	return format.Gain(lo) + " to " + format.Gain(hi)
}

// WriteReliefs writes a why check, each relief's gain beside the model's.
func WriteReliefs(w io.Writer, r causal.Reliefs) error {
	for _, para := range strings.Split(ReliefsVerdict(r), "\n") {
		fmt.Fprintln(w, format.Wrap(para, format.Width(w), ""))
	}
	if r.Calibration != "" {
		fmt.Fprintln(w, format.Wrap(r.Calibration, format.Width(w), "  "))
	}
	fmt.Fprintln(w)
	t := format.Table{Ragged: true}
	t.Row("", "model", "measured", "gain", "range (95 %)", "p", "verdict")
	base := "-"
	for _, e := range r.Reliefs {
		if e.Compared {
			base = medianCell(e.Old.Median, e.Old.Lo, e.Old.Hi)
			break
		}
	}
	t.Line("as it is")
	t.Row("", fmt.Sprintf("%.0f %s", r.Predicted, r.Unit), base, "", "", "", "")
	for _, e := range r.Reliefs {
		model := format.Gain(e.ModelGain)
		t.Line(ChangeText(e.Change))
		if e.Skip != "" {
			t.Row("", model, "-", "", "", "", "not measured: "+e.Skip)
			continue
		}
		if !e.Compared {
			t.Row("", model, "-", "", "", "", "")
			continue
		}
		verdict := MetricVerdict(e.Metric)
		if e.Disturbed > 0 {
			verdict += fmt.Sprintf(" (%d runs disturbed)", e.Disturbed)
		}
		if e.Judged && !e.Agree {
			verdict += "; disagrees with the model"
		}
		t.Row("", model, medianCell(e.New.Median, e.New.Lo, e.New.Hi), format.Gain(e.Gain), gainRange(e.Lo, e.Hi), fmt.Sprintf("%.3f", e.P), verdict)
	}
	return t.Write(w)
}

// medianCell writes a median with its interval as compare does: "498.0 ± 1%".
func medianCell(median, lo, hi float64) string {
	if median == 0 || math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return fmt.Sprintf("%.1f", median)
	}
	half := max(hi-median, median-lo) / median * 100
	return fmt.Sprintf("%.1f ± %.0f%%", median, half)
}
