package main

import (
	"fmt"

	"github.com/brewput/brewput/analysis"
	"github.com/spf13/cobra"
)

func newFitCmd(e *env) *cobra.Command {
	var by, format string
	cmd := &cobra.Command{
		Use:   "fit FILE...",
		Short: "Fit a scalability law (linear, Amdahl's or the USL, by AIC) to each mode's throughput",
		Long: `fit reads results files (as brewput report does, go test -bench output
included; several are merged) and fits each series' throughput X against
CPUs N (or, with --by par, against customers) with the Universal Scalability
Law

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
			points, err := e.openResults(files...)
			if err != nil {
				return err
			}
			fits, err := analysis.FitAll(points, by)
			if err != nil {
				return err
			}
			if err := analysis.WriteFits(e.stdout, fits, by, format); err != nil {
				return failure{Err: err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&by, "by", analysis.ByCPUs, "fit throughput against cpus or par (customers)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json (JSON Lines)")
	return cmd
}
