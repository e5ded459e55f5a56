package main

import (
	"github.com/brewput/brewput/compare"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
)

func newCompareCmd(e *env) *cobra.Command {
	var format string
	var opts compare.Options
	cmd := &cobra.Command{
		Use:   "compare OLD NEW",
		Short: "Tell, point by point, how two results files differ, with a statistical verdict",
		Long: `compare matches the points of two results files by configuration (mode,
CPUs, customers, load and steps; not by host, so OLD and NEW may come from
different machines; model predictions only with model predictions) and prints, for throughput, median (p50) and p99
latency, the old and new medians, the change, and a verdict the way
benchstat gives one: a Mann-Whitney U test over the repetitions of each
point (run --count N). "~" means no significant difference at --alpha; with
too few repetitions for any verdict, it says so and how many are needed.`,
		Example: `  brewput run --modes finelocking,multi-2 --count 6 --out old.json
  brewput run --modes finelocking,multi-2 --count 6 --grind 2ms --out new.json
  brewput compare old.json new.json`,
		Args: func(_ *cobra.Command, args []string) error { return compare.TwoFiles(args) },
		RunE: func(cmd *cobra.Command, args []string) error {
			return compare.Files(e.stdout, args[0], args[1], opts, format, func(path string) ([]results.Point, error) { return e.openResults(path) })
		},
	}
	cmd.Flags().Float64Var(&opts.Alpha, "alpha", 0.05, "significance level: a difference counts when p < alpha")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	return cmd
}
