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
// ByPar): as "json" Lines, else as a table, a row per series under its
// name: the law the AIC chose, its parameters, and the peak or why it
// could not be fitted.
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
	n := "CPUs"
	if by == analysis.ByPar {
		n = "customers"
	}
	width := format.Width(w)
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("X(N) = λN / (1 + σ(N−1) + κN(N−1)), N = %s: the linear law (σ = κ = 0), Amdahl's (κ = 0) or the "+
		"Universal Scalability Law, whichever the AIC prefers; σ contention, κ coherency, λ the throughput of one "+
		"(as measured at N = 1 where there is one: λ*); Amdahl σ is the serial fraction of the fit with κ = 0.", n), width, ""))
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
		return "none: " + f.NoPeak
	}
	unit := strings.TrimSpace(" " + f.Unit)
	noun := "CPUs"
	if f.By == analysis.ByPar {
		noun = "customers"
	}
	s := fmt.Sprintf("%.1f %s at %.1f %s", f.PeakThroughput, unit, f.PeakN, noun)
	if f.Extrapolated {
		s += fmt.Sprintf(", extrapolated beyond the data (up to %d)", f.N[len(f.N)-1])
	}
	return s
}
