package why

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/brewput/brewput/internal/format"
)

// WriteTable writes the study: the point as it is, then each relief's
// predicted gain beside the measured one, then the verdict in words.
func (s *Check) WriteTable(w io.Writer) error {
	runs := len(s.BasePoints)
	fmt.Fprintf(w, "%s, each measured %s on real CPUs, beside the model\n", s.System, times(runs))
	if s.Calibration != "" {
		fmt.Fprintf(w, "%s\n", s.Calibration)
	}
	fmt.Fprintln(w)
	var t format.Table
	t.Row("relief", "model", "measured", "gain", "range (95 %)", "p", "verdict")
	base := "-"
	if len(s.BasePoints) > 0 && len(s.Experiments) > 0 {
		for _, e := range s.Experiments {
			if m, ok := e.Throughput(); ok {
				base = cell(m.Old.Median, m.Old.Lo, m.Old.Hi)
				break
			}
		}
	}
	t.Row("as it is", fmt.Sprintf("%.0f %s", s.Predicted, s.Unit), base, "", "", "", "")
	for _, e := range s.Experiments {
		model := format.Gain(e.Model.Gain)
		if e.Skip != "" {
			t.Row(e.Model.Change, model, "(not measured: "+e.Skip+")", "", "", "", "")
			continue
		}
		m, ok := e.Throughput()
		if !ok {
			t.Row(e.Model.Change, model, "-", "", "", "", "")
			continue
		}
		g, lo, hi, _ := e.Gain()
		verdict := m.Verdict
		if e.Disturbed > 0 {
			verdict += fmt.Sprintf(" (%d runs disturbed)", e.Disturbed)
		}
		if a, ok := e.Agrees(); ok && !a {
			verdict += "; disagrees with the model"
		}
		t.Row(e.Model.Change, model, cell(m.New.Median, m.New.Lo, m.New.Hi), format.Gain(g), interval(lo, hi), fmt.Sprintf("%.3f", m.P), verdict)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", s.Verdict())
	return err
}

// cell writes a median with its interval as compare does: "498.0 ± 1%".
func cell(median, lo, hi float64) string {
	if median == 0 || math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return fmt.Sprintf("%.1f", median)
	}
	half := max(hi-median, median-lo) / median * 100
	return fmt.Sprintf("%.1f ± %.0f%%", median, half)
}

func times(n int) string {
	switch n {
	case 0:
		return "no times"
	case 1:
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// WriteJSON writes the study as one indented JSON object.
func (s *Check) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// Write writes the study in format: "json", or the table.
func (s *Check) Write(w io.Writer, format string) error {
	if format == "json" {
		return s.WriteJSON(w)
	}
	return s.WriteTable(w)
}
