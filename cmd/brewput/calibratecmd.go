//go:build !js

package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/model/calibrate"
)

func newCalibrateCmd(e *env) *cobra.Command {
	var (
		out  string
		show bool
		how  = calibrate.DefaultHow()
		req  inferRequest
		cpus string
	)
	how.Wait = time.Minute
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Measure the Go runtime's handoff costs that the model's go policy uses, or infer them from measured points",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(req.From) > 0 {
				return inferCosts(cmd, e, req, out, cpus)
			}
			for _, name := range []string{"cpus", "runtime", "base"} {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("--%s: applies to --from only, which infers the costs from measured points", name)
				}
			}
			if err := how.Check(); err != nil {
				return err
			}
			switch {
			case cmd.Flags().Changed("out") && out == "":
				return fmt.Errorf("--out \"\": want a file for the calibration, such as laptop-calibration.json; leave --out out for the user's config folder")
			case how.Wait < 0:
				return fmt.Errorf("--wait %v: want zero or a positive duration such as 1m", how.Wait)
			case show && (cmd.Flags().Changed("samples") || cmd.Flags().Changed("repeats") || cmd.Flags().Changed("wait") || how.Force):
				return fmt.Errorf("--show: prints the saved calibration; it measures nothing, so --samples, --repeats, --wait and --force do not apply")
			}
			path := out
			if path == "" {
				p, err := calibrate.DefaultPath()
				if err != nil {
					return failure{Err: err}
				}
				path = p
			}
			if show {
				return calibrate.Show(e.stdout, path)
			}
			if err := calibrate.CheckOut(path); err != nil {
				return fmt.Errorf("--out %s: %w", path, err)
			}
			return calibrate.MeasureAndSave(cmd.Context(), how, path, e.stdout, e.tell)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "file to keep the calibration in, or to --show (default: the user's config folder, brewput/calibration.json; with --from, brewput/inferred-NAME.json there)")
	cmd.Flags().IntVar(&how.Samples, "samples", calibrate.Samples, "runs of each microbenchmark per repeat")
	cmd.Flags().IntVar(&how.Repeats, "repeats", calibrate.Repeats, "repeats of every microbenchmark, for each cost's confidence interval")
	cmd.Flags().Var((*cliflag.Duration)(&how.Wait), "wait", "longest to wait for a quiet machine before measuring")
	cmd.Flags().BoolVar(&how.Force, "force", false, "save the calibration even if other processes were busy while it measured")
	cmd.Flags().BoolVar(&show, "show", false, "print the saved calibration instead of measuring")
	cmd.Flags().StringSliceVar(&req.From, "from", nil, "infer the costs from these files of measured points instead of measuring: brewput results files, or the talk simulator's CSV tables")
	cmd.Flags().StringVar(&cpus, "cpus", "", "with --from: infer from the points on these CPU counts only, such as 1,2 or 1-2 (default: all)")
	cmd.Flags().StringVar(&req.Runtime, "runtime", "", "with --from: the Go runtime the points ran on, whose scheduler the model follows: go1.9, or leave it out for today's")
	cmd.Flags().StringVar(&req.Base, "base", "", "with --from: the calibration whose costs the points do not constrain keep (default: this machine's, measured first if there is none)")
	return cmd
}
