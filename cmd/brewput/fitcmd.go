package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/brewput/brewput/analysis"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
)

func newFitCmd(e *env) *cobra.Command {
	var by, format string
	cmd := &cobra.Command{
		Use:   "fit FILE...",
		Short: "Fit a scalability law (linear, Amdahl's or the USL, by AIC) to each mode's throughput",
		Long: `fit reads results files (as brewput report does; several are merged) and
fits each series' throughput X against CPUs N (or, with --by par, against
customers) with the Universal Scalability Law

  X(N) = λN / (1 + σ(N−1) + κN(N−1))

or its special cases, the straight line (σ = κ = 0) and Amdahl's law
(κ = 0), by least squares, and keeps the one the AIC (Akaike's information
criterion) prefers: a law with one more parameter only where it lowers the
AIC by more than 2, so a κ that is not significant is 0. σ is contention,
the serialized share of the work, which bends the curve flat toward λ/σ; κ
is coherency, the cost of crosstalk between every pair, which bends it back
down after a peak at √((1−σ)/κ); λ is the throughput of one, taken as
measured where the series has N = 1. Amdahl's σ, the serial fraction, is
given beside. R² says how much of the throughput's variation the curve
explains.

The fit claims no more than the data show: a series whose last three or
more counts lie within 2 % of each other is "flat from N CPUs at X" and has
no peak; a peak past the largest count is marked extrapolated; a peak
inside the data is claimed only where the throughput falls after it; a
ceiling λ/σ over 100 times the largest throughput seen is not printed.

A series is a mode measured on one machine, or predicted by the model under
one scheduling policy, under one load; its repetitions are all fitted. A
fit needs at least 3 CPU (or customer) counts: a series with fewer says so,
and if no series can be fitted, fit fails. --format json writes JSON Lines,
one object per series: mode, source, sigma, kappa, lambda, peak_n,
peak_throughput (null without a peak, where no_peak says why), ceiling,
serial_fraction, r2, law, aic, anchored, extrapolated, flat_from, flat_at,
points and, for a series that could not be fitted, error.`,
		Example: `  brewput model --modes ideal,locking,finelocking --cpus 1-16 --sched fifo --format json --out model.json
  brewput fit model.json
  brewput fit brewput-report/results.json --format json
  for p in 1 2 4 8; do brewput model --modes finelocking --cpus 4 --par $p --format json --out par$p.json; done
  brewput fit --by par par*.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("fit needs at least one results file, such as brewput-report/results.json")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, files []string) error {
			if by != analysis.ByCPUs && by != analysis.ByPar {
				return fmt.Errorf("--by: unknown axis %q; accepted: %s (throughput against CPUs), %s (against customers)", by, analysis.ByCPUs, analysis.ByPar)
			}
			if format != "table" && format != "json" {
				return fmt.Errorf("--format: unknown format %q; accepted: table, json", format)
			}
			points, err := results.ReadFiles(files...)
			if err != nil {
				return err
			}
			fits, err := analysis.Fits(points, by)
			if err != nil {
				return err
			}
			if err := noneFitted(fits, by); err != nil {
				return err
			}
			if format == "json" {
				err = analysis.WriteFitsJSON(e.stdout, fits)
			} else {
				err = writeFitTable(e.stdout, fits, by)
			}
			if err != nil {
				return failure{err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&by, "by", analysis.ByCPUs, "fit throughput against cpus or par (customers)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json (JSON Lines)")
	return cmd
}

// noneFitted returns the usage error of fits of which none could be
// fitted, saying why; nil if one could. Results too thin to fit are the
// input's fault, to be told plainly rather than printed as a table of
// blanks.
func noneFitted(fits []analysis.Fit, by string) error {
	var reasons []string
	for _, f := range fits {
		if f.Fitted() {
			return nil
		}
		reasons = append(reasons, fmt.Sprintf("%s (%s): %s", f.Mode, f.SourceText(), f.Error))
	}
	against := "CPUs"
	if by == analysis.ByPar {
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

// writeFitTable writes one row per series: its source (and load, where
// the series differ in it), the fitted σ, κ and λ, R², Amdahl's serial
// fraction, the number of CPU or customer counts, and the peak or what
// the curve does instead; a series that could not be fitted says why in
// place of its peak.
func writeFitTable(w io.Writer, fits []analysis.Fit, by string) error {
	n := "CPUs"
	if by == analysis.ByPar {
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
				analysis.FormatParam(f.Sigma),
				analysis.FormatParam(f.Kappa),
				lambda,
				fmt.Sprintf("%.4f", f.R2),
				analysis.FormatParam(f.SerialFraction),
				fmt.Sprint(f.Points),
				f.PeakText())
		}
		// The last cell, the peak, ends the line unaligned: it is text
		// of any length.
		fmt.Fprintln(tw, strings.Join(row[:len(row)-1], "\t")+"\t  "+row[len(row)-1])
	}
	return tw.Flush()
}
