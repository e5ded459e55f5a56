package scaling

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/brewput/brewput/results"
)

// CheckFitted returns the error of fits of which none could be fitted
// against by (ByCPUs or ByPar), saying why; nil if one could. Results too
// thin to fit are the input's fault, to be told plainly rather than
// printed as a table of blanks.
func CheckFitted(fits []Fit, by string) error {
	var reasons []string
	for _, f := range fits {
		if f.Fitted() {
			return nil
		}
		reasons = append(reasons, fmt.Sprintf("%s (%s): %s", f.Mode, f.SourceText(), f.Error))
	}
	against := "CPUs"
	if by == ByPar {
		against = "customers"
	}
	what := fmt.Sprintf("no series can be fitted against %s", against)
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

// WriteFitTable writes one row per series: its source (and load, where
// the series differ in it), the law the AIC chose, the fitted σ, κ and λ
// (λ* where it is the throughput measured with one), R², Amdahl's serial
// fraction, the number of CPU or customer counts, and the peak or what
// the curve does instead; a series that could not be fitted says why in
// place of its peak.
func WriteFitTable(w io.Writer, fits []Fit, by string) error {
	n := "CPUs"
	if by == ByPar {
		n = "customers"
	}
	fmt.Fprintf(w, "X(N) = λN / (1 + σ(N−1) + κN(N−1)), N = %s: the linear law (σ = κ = 0), Amdahl's (κ = 0) or the\n", n)
	fmt.Fprintf(w, "Universal Scalability Law, whichever the AIC prefers; σ contention, κ coherency, λ the throughput of one\n")
	fmt.Fprintf(w, "(as measured at N = 1 where there is one: λ*); Amdahl σ is the serial fraction of the fit with κ = 0\n\n")

	loads := false
	modeWidth, sourceWidth := len("mode"), len("source")
	for _, f := range fits {
		loads = loads || f.LoadText() != fits[0].LoadText()
		modeWidth = max(modeWidth, len(f.Mode))
		sourceWidth = max(sourceWidth, len(f.SourceText()))
	}
	// Numbers align right; padding the text columns makes them read
	// left-aligned all the same.
	left := func(s string, width int) string { return fmt.Sprintf("%-*s", width, s) }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{left("mode", modeWidth), left("source", sourceWidth)}
	if loads {
		head = append(head, "load")
	}
	head = append(head, "law", "σ", "κ", "λ", "R²", "Amdahl σ", "points", "peak")
	fmt.Fprintln(tw, strings.Join(head[:len(head)-1], "\t")+"\t  "+head[len(head)-1])
	for _, f := range fits {
		row := []string{left(f.Mode, modeWidth), left(f.SourceText(), sourceWidth)}
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
			row = append(row,
				f.Law,
				FormatParam(f.Sigma),
				FormatParam(f.Kappa),
				lambda,
				fmt.Sprintf("%.4f", f.R2),
				FormatParam(f.SerialFraction),
				fmt.Sprint(f.Points),
				f.PeakText())
		}
		// The last cell, the peak, ends the line unaligned: it is text
		// of any length.
		fmt.Fprintln(tw, strings.Join(row[:len(row)-1], "\t")+"\t  "+row[len(row)-1])
	}
	return tw.Flush()
}

// FitAll fits each series of points against by (Fits) and refuses points
// of which no series can be fitted (CheckFitted).
func FitAll(points []results.Point, by string) ([]Fit, error) {
	fits, err := Fits(points, by)
	if err != nil {
		return nil, err
	}
	return fits, CheckFitted(fits, by)
}

// WriteFits writes fits in format: "json" as JSON Lines (WriteFitsJSON),
// anything else as the table (WriteFitTable).
func WriteFits(w io.Writer, fits []Fit, by, format string) error {
	if format == "json" {
		return WriteFitsJSON(w, fits)
	}
	return WriteFitTable(w, fits, by)
}
