//go:build !js

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/report/text"
)

func newFitCmd(e *env) *cobra.Command {
	var by, format string
	cmd := &cobra.Command{
		Use:   "fit FILE...",
		Short: "Fit a scalability law (linear, Amdahl's or the USL, by AIC) to each mode's throughput",
		Args:  cliflag.NeedFiles("fit", "brewput-report/results.json"),
		RunE: func(cmd *cobra.Command, files []string) error {
			if by != scaling.ByCPUs && by != scaling.ByPar {
				return fmt.Errorf("--by: unknown axis %q; accepted: %s (throughput against CPUs), %s (against customers)", by, scaling.ByCPUs, scaling.ByPar)
			}
			if format != "table" && format != "json" {
				return fmt.Errorf("--format: unknown format %q; accepted: table, json", format)
			}
			points, err := e.openResults(files...)
			if err != nil {
				return err
			}
			fits, err := scaling.FitAll(points, by)
			if err != nil {
				return err
			}
			return failed(text.WriteFits(e.stdout, fits, by, format))
		},
	}
	cmd.Flags().StringVar(&by, "by", scaling.ByCPUs, "fit throughput against cpus or par (customers)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json (JSON Lines)")
	return cmd
}
