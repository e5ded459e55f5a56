package text

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// WriteFits writes fits of throughput against by (analysis.ByCPUs or
// ByPar) as "json" Lines, else as a table, a row per series.
func WriteFits(w io.Writer, fits []analysis.Fit, by, as string) error {
	if as == "json" {
		for _, f := range fits {
			b, err := f.MarshalJSON()
			if err != nil {
				return fmt.Errorf("%s: %w", f.Mode, err)
			}
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
		}
		return nil
	}
	width := format.Width(w)
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("X(N) = λN / (1 + σ(N−1) + κN(N−1)), N = %s: the linear law (σ = κ = 0), Amdahl's (κ = 0) or the "+
		"Universal Scalability Law, whichever the AIC prefers; σ contention, κ coherency, λ the throughput of one "+
		"(as measured at N = 1 where there is one: λ*); Amdahl σ is the serial fraction of the fit with κ = 0.", counted(by)), width, ""))
	fmt.Fprintln(w)

	loads := slices.ContainsFunc(fits, func(f analysis.Fit) bool { return f.LoadText() != fits[0].LoadText() })
	t := format.Table{Align: []format.Align{format.Left, format.Left, format.Right}, Indent: true, Ragged: true, Width: width}
	t.Row("", "law", "σ", "κ", "λ", "R²", "Amdahl σ", "points", "peak")
	for _, f := range fits {
		name := f.Mode + " (" + f.SourceText()
		if loads {
			name += ", " + f.LoadText()
		}
		t.Line(name + ")")
		if !f.Fitted() {
			t.Row("", "-", "-", "-", "-", "-", "-", fmt.Sprint(f.Points), "cannot fit: "+f.Error)
		} else {
			lambda := strings.TrimSpace(fmt.Sprintf("%.1f %s", f.Lambda, f.Unit))
			if f.Anchored {
				lambda = strings.Replace(lambda, " ", "* ", 1)
			}
			t.Row("", f.Law, format.Param(f.Sigma), format.Param(f.Kappa), lambda,
				fmt.Sprintf("%.4f", f.R2), format.Param(f.SerialFraction), fmt.Sprint(f.Points), PeakText(f))
		}
	}
	return t.Write(w)
}

// CutShort says how far the run of plan got, "… after 14 of 18 points."
func CutShort(plan results.Plan, points []results.Point) string {
	done, planned, missing := results.Progress(plan, points)
	s := fmt.Sprintf("The run was cut short: it stopped after %d of %d points", done, planned)
	if planned == 0 {
		s = fmt.Sprintf("The run was cut short: it stopped after %d point(s)", done)
	}
	if len(missing) > 0 {
		s += ", before the labs " + strings.Join(missing, ", ")
	}
	return s + "."
}

// PeakText describes the peak: "1160.2 lattes/s at 6.5 CPUs"; "-" where not fitted.
func PeakText(f analysis.Fit) string {
	if !f.Fitted() {
		return "-"
	}
	if !f.HasPeak() {
		return "none: " + NoPeakText(f)
	}
	unit, noun := strings.TrimSpace(f.Unit), counted(f.By)
	s := fmt.Sprintf("%.1f %s at %.1f %s", f.PeakThroughput, unit, f.PeakN, noun)
	if f.Extrapolated {
		s += fmt.Sprintf(", extrapolated beyond the data (up to %d)", f.N[len(f.N)-1])
	}
	return s
}

// NoPeakText says why a fit claims no peak: "flat from 4 CPUs at 1000.0
// lattes/s", "κ = 0: throughput approaches λ/σ = 2000.0".
func NoPeakText(f analysis.Fit) string {
	unit, noun := strings.TrimSpace(f.Unit), counted(f.By)
	var s string
	switch f.NoPeak {
	case analysis.NoPeakFlat:
		s = fmt.Sprintf("flat from %s at %.1f %s", format.Count(f.FlatFrom, strings.TrimSuffix(noun, "s")), f.FlatAt, unit)
	case analysis.NoPeakAboveBound:
		return fmt.Sprintf("the fitted curve would peak at %.1f %s at %.1f %s, above the structural bound of %.1f %s, which throughput cannot pass",
			f.TurnThroughput, unit, f.TurnN, noun, f.Bound, unit)
	case analysis.NoPeakNoFall:
		return fmt.Sprintf("none seen: the throughput does not fall (highest %.1f %s at %g %s); the fitted curve turns at %.1f %s",
			f.Top, unit, f.TopN, noun, f.TurnN, noun)
	case analysis.NoPeakKappaZero:
		s = kappaZero(f, unit)
	default:
		return f.NoPeak // an older file's words
	}
	switch {
	case f.CeilingWhy == analysis.CeilingAboveBound:
		above := fmt.Sprintf("λ/σ = %.1f lies above the structural bound of %.1f %s, which throughput cannot pass", f.LawCeiling, f.Bound, unit)
		if f.NoPeak == analysis.NoPeakFlat {
			return s + "; the law's " + above
		}
		return "κ = 0: " + above
	case f.CeilingWhy == analysis.CeilingFar && f.NoPeak != analysis.NoPeakFlat:
		return fmt.Sprintf("κ = 0: throughput grows over the whole series; where it would stop (λ/σ) is past %d× the largest throughput seen, which the data cannot tell", analysis.MaxCeiling)
	}
	return s
}

// kappaZero says what a curve with κ = 0 does, by σ.
func kappaZero(f analysis.Fit, unit string) string {
	switch {
	case f.Sigma == 0 && f.Bound > 0:
		return fmt.Sprintf("κ = 0 and σ = 0: throughput grows in proportion over the data, and cannot pass the structural bound of %.1f %s", f.Bound, unit)
	case f.Sigma == 0:
		return "κ = 0 and σ = 0: throughput grows in proportion, without bound"
	case f.Sigma == 1:
		return fmt.Sprintf("κ = 0 and σ = 1: throughput stays flat at λ = %.1f", f.Lambda)
	}
	return fmt.Sprintf("κ = 0: throughput approaches λ/σ = %.1f", f.LawCeiling)
}

// counted is what N counts in a fit against by: "CPUs" or "customers".
func counted(by string) string {
	if by == analysis.ByPar {
		return "customers"
	}
	return "CPUs"
}
