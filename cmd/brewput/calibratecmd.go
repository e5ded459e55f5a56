package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/brewput/brewput/calibrate"
	"github.com/brewput/brewput/host"
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
			c, err := measureCalibration(cmd, samples)
			if err != nil {
				return err
			}
			if err := calibrate.Save(path, c); err != nil {
				return failure{err}
			}
			writeCalibration(e, c)
			fmt.Fprintf(e.stdout, "saved: %s\n", path)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "file to keep the calibration in (default: the user's config folder, brewput/calibration.json)")
	cmd.Flags().IntVar(&samples, "samples", calibrate.Samples, "runs of each microbenchmark; each cost is their median")
	return cmd
}

// measureCalibration runs the microbenchmarks, recording the host.
func measureCalibration(cmd *cobra.Command, samples int) (calibrate.Calibration, error) {
	c, err := calibrate.Measure(cmd.Context(), samples)
	if err != nil {
		if cmd.Context().Err() != nil {
			return c, interrupted{fmt.Errorf("interrupted while calibrating; nothing saved")}
		}
		return c, failure{err}
	}
	c.Host = host.Detect()
	return c, nil
}

// writeCalibration prints the costs as a small table.
func writeCalibration(e *env, c calibrate.Calibration) {
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "cost\tmedian\t")
	for _, r := range []struct {
		name string
		v    any
	}{
		{"switch", c.Costs.Switch}, {"wake", c.Costs.Wake}, {"spin wake", c.Costs.SpinWake},
		{"spin window", c.Costs.SpinWindow}, {"mutex handoff", c.Costs.MutexHandoff},
		{"chan handoff", c.Costs.ChanHandoff}, {"buf chan handoff", c.Costs.BufChanHandoff},
	} {
		fmt.Fprintf(w, "%s\t%v\t\n", r.name, r.v)
	}
	w.Flush()
	fmt.Fprintf(e.stdout, "%d samples each on %s, %s; other processes used %.2f CPUs meanwhile\n",
		c.Samples, c.Host.CPUModel, c.Host.GoVersion, c.Others)
	if c.Note != "" {
		fmt.Fprintf(e.stdout, "note: %s\n", c.Note)
	}
}
