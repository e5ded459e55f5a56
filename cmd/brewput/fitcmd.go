package main

import (
	"fmt"

	"github.com/brewput/brewput/analysis"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
)

func newFitCmd(e *env) *cobra.Command {
	var by, format string
	cmd := &cobra.Command{
		Use:   "fit FILE...",
		Short: "Fit the Universal Scalability Law to each mode's throughput",
		Long: `fit reads results files (as brewput report does, go test -bench output
included; several are merged) and fits the Universal Scalability Law

  X(N) = λN / (1 + σ(N−1) + κN(N−1))

to each series' throughput X against CPUs N (or, with --by par, against
customers), by least squares: σ is contention, the serialized share of the
work, which bends the curve flat toward λ/σ; κ is coherency, the cost of
crosstalk between every pair, which bends it back down after a peak at
√((1−σ)/κ); λ is the throughput of one. Amdahl's law is the κ = 0 case, and
its σ, the serial fraction, is given beside. R² says how much of the
throughput's variation the curve explains.

A series is a mode measured on one machine, or predicted by the model under
one scheduling policy, under one load; its repetitions are all fitted. A
fit needs at least 3 CPU (or customer) counts: a series with fewer says so,
and if no series can be fitted, fit fails. --format json writes JSON Lines,
one object per series: mode, source, sigma, kappa, lambda, peak_n,
peak_throughput (null without a peak, where no_peak says why), ceiling,
serial_fraction, r2, points and, for a series that could not be fitted,
error.`,
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
			if err := analysis.CheckFitted(fits, by); err != nil {
				return err
			}
			if format == "json" {
				err = analysis.WriteFitsJSON(e.stdout, fits)
			} else {
				err = analysis.WriteFitTable(e.stdout, fits, by)
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
