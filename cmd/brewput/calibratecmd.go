package main

import (
	"fmt"

	"github.com/brewput/brewput/calibrate"
	"github.com/spf13/cobra"
)

func newCalibrateCmd(e *env) *cobra.Command {
	var (
		out     string
		samples int
	)
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Measure the Go runtime's handoff costs that the model's go policy uses",
		Long: `calibrate runs microbenchmarks of the Go runtime on this machine and keeps
their medians for brewput model's go scheduling policy:

  switch             parking one goroutine and running the next on one P
  wake               a goroutine readied while a P is idle, until that P runs it
  spin wake          the same when the idle P's thread is still spinning
  spin window        how long an idle P's thread spins before it sleeps
  mutex handoff      an Unlock that wakes a goroutine asleep in Lock
  chan handoff       a send that wakes a goroutine asleep in a receive
  buf chan handoff   the same on a buffered channel

They are written to --out (by default the user's configuration folder),
where brewput model reads them. Run it on a quiet machine: other processes
using the CPUs make the wake-up in particular read high, and the output says
how busy the machine was.`,
		Example: `  brewput calibrate
  brewput calibrate --out laptop-calibration.json --samples 1000`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if samples < 5 {
				return fmt.Errorf("--samples %d: want at least 5", samples)
			}
			path := out
			if path == "" {
				p, err := calibrate.DefaultPath()
				if err != nil {
					return failure{err}
				}
				path = p
			}
			c, err := calibrate.Measure(cmd.Context(), samples)
			if err != nil {
				return calibrationError(cmd, err)
			}
			if err := calibrate.Save(path, c); err != nil {
				return failure{err}
			}
			c.WriteTable(e.stdout)
			fmt.Fprintf(e.stdout, "saved: %s\n", path)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "file to keep the calibration in (default: the user's config folder, brewput/calibration.json)")
	cmd.Flags().IntVar(&samples, "samples", calibrate.Samples, "runs of each microbenchmark; each cost is their median")
	return cmd
}

// calibrationError is the command's error of a calibration that failed:
// an interruption, after which nothing is saved, or a failure.
func calibrationError(cmd *cobra.Command, err error) error {
	switch {
	case err == nil:
		return nil
	case cmd.Context().Err() != nil:
		return interrupted{fmt.Errorf("interrupted while calibrating; nothing saved")}
	}
	return failure{err}
}
