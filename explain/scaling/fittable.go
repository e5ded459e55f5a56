package scaling

import (
	"fmt"
	"io"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// CheckFitted returns the error of fits none of which could be fitted,
// saying why; nil if one could. Results too thin to fit are the input's
// fault, told plainly rather than as a table of blanks.
func CheckFitted(fits []Fit, by string) error {
	var reasons []string
	for _, f := range fits {
		if f.Fitted() {
			return nil
		}
		reasons = append(reasons, fmt.Sprintf("%s (%s): %s", f.Mode, f.SourceText(), f.Error))
	}
	what := "no series can be fitted against " + nounOf(by)
	same := true
	for _, f := range fits {
		same = same && f.Error == fits[0].Error
	}
	switch {
	case len(fits) == 0:
		return fmt.Errorf("%s: the files hold no series", what)
	case same && len(fits) > 1:
		return fmt.Errorf("%s: each of the %d series has %s", what, len(fits), fits[0].Error)
	case len(reasons) > 3:
		reasons = append(reasons[:3], fmt.Sprintf("and %d more", len(reasons)-3))
	}
	return fmt.Errorf("%s: %s", what, strings.Join(reasons, "; "))
}

// WriteFitTable writes a row per series: its source (and load, where the
// series differ in it), the law the AIC chose, σ, κ, λ (λ* where measured
// at N = 1), R², Amdahl's serial fraction, the counts, and the peak or
// what the curve does instead, or why it could not be fitted.
func WriteFitTable(w io.Writer, fits []Fit, by string) error {
	fmt.Fprintf(w, "X(N) = λN / (1 + σ(N−1) + κN(N−1)), N = %s: the linear law (σ = κ = 0), Amdahl's (κ = 0) or the\n", nounOf(by))
	fmt.Fprintf(w, "Universal Scalability Law, whichever the AIC prefers; σ contention, κ coherency, λ the throughput of one\n")
	fmt.Fprintf(w, "(as measured at N = 1 where there is one: λ*); Amdahl σ is the serial fraction of the fit with κ = 0\n\n")

	loads := false
	for _, f := range fits {
		loads = loads || f.LoadText() != fits[0].LoadText()
	}
	t := format.Table{Align: []format.Align{format.Left, format.Left, format.Right}, Indent: true, Ragged: true}
	head := []string{"mode", "source"}
	if loads {
		head = append(head, "load")
	}
	t.Row(append(head, "law", "σ", "κ", "λ", "R²", "Amdahl σ", "points", "peak")...)
	for _, f := range fits {
		row := []string{f.Mode, f.SourceText()}
		if loads {
			row = append(row, f.LoadText())
		}
		if !f.Fitted() {
			row = append(row, "-", "-", "-", "-", "-", "-", fmt.Sprint(f.Points), "cannot fit: "+f.Error)
		} else {
			lambda := strings.TrimSpace(fmt.Sprintf("%.1f %s", f.Lambda, f.Unit))
			if f.Anchored {
				lambda = strings.Replace(lambda, " ", "* ", 1)
			}
			row = append(row, f.Law, format.Param(f.Sigma), format.Param(f.Kappa), lambda,
				fmt.Sprintf("%.4f", f.R2), format.Param(f.SerialFraction), fmt.Sprint(f.Points), f.PeakText())
		}
		t.Row(row...)
	}
	return t.Write(w)
}

// FitAll is Fits, refusing points of which no series can be fitted.
func FitAll(points []results.Point, by string) ([]Fit, error) {
	fits, err := Fits(points, by)
	if err != nil {
		return nil, err
	}
	return fits, CheckFitted(fits, by)
}

// WriteFits writes fits in format: "json" as JSON Lines, else the table.
func WriteFits(w io.Writer, fits []Fit, by, format string) error {
	if format == "json" {
		return WriteFitsJSON(w, fits)
	}
	return WriteFitTable(w, fits, by)
}
