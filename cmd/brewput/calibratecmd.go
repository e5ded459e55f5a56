package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"text/tabwriter"
	"time"

	"github.com/brewput/brewput/calibrate"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
)

// calibration is how brewput calibrate measures: the microbenchmarks'
// samples and repeats, how long to wait for a quiet machine, and whether
// to keep a calibration measured on a busy one.
type calibration struct {
	samples, repeats int
	wait             time.Duration
	force            bool
}

// defaultCalibration is what the model and the main job use when they must
// measure the costs themselves.
func defaultCalibration() calibration {
	return calibration{samples: calibrate.Samples, repeats: calibrate.Repeats, wait: 2 * time.Second}
}

func newCalibrateCmd(e *env) *cobra.Command {
	var (
		out  string
		show bool
		wait durationFlag
		how  = defaultCalibration()
	)
	wait = durationFlag(time.Minute)
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Measure the Go runtime's handoff costs that the model's go policy uses",
		Long: `calibrate runs microbenchmarks of the Go runtime on this machine and keeps
each cost's median, its 95 % confidence interval over --repeats repeats and
its distribution, for brewput model's go scheduling policy:

  wake               a goroutine readied while a P is idle, until that P runs it
  spin wake          the same when the idle P's thread is still spinning
  spin window        how long an idle P's thread spins before it sleeps (by bisection)
  switch             parking one goroutine and running the next on one P
  mutex handoff      an Unlock that wakes a goroutine asleep in Lock
  chan handoff       a send that wakes a goroutine asleep in a receive
  buf chan handoff   the same on a buffered channel

The model predicts each go-policy point with the medians, and its band with
the intervals' edges.

It measures only on a quiet machine: first it waits (at most --wait) until
other processes use less than 0.2 CPUs, then measures, and if other
processes used 0.2 CPUs or more meanwhile, it prints what it found, saves
nothing and exits 1 — other processes make the wake-up in particular read
high — unless --force keeps it anyway, marked as forced.

The calibration goes to --out (by default the user's configuration folder),
where brewput model reads it; --show prints the one kept there.`,
		Example: `  brewput calibrate
  brewput calibrate --show
  brewput calibrate --out laptop-calibration.json --samples 300 --repeats 10
  brewput calibrate --force      # keep it even if the machine was busy`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case how.samples < 5:
				return fmt.Errorf("--samples %d: want at least 5", how.samples)
			case how.repeats < 1:
				return fmt.Errorf("--repeats %d: want at least 1 (6 or more for a 95 %% interval)", how.repeats)
			case wait.get() < 0:
				return fmt.Errorf("--wait %v: want zero or a positive duration such as 1m", wait.get())
			case show && (cmd.Flags().Changed("samples") || cmd.Flags().Changed("repeats") || cmd.Flags().Changed("wait") || how.force):
				return fmt.Errorf("--show: prints the saved calibration; it measures nothing, so --samples, --repeats, --wait and --force do not apply")
			}
			how.wait = wait.get()
			path := out
			if path == "" {
				p, err := calibrate.DefaultPath()
				if err != nil {
					return failure{err}
				}
				path = p
			}
			if show {
				c, err := calibrate.Load(path)
				if errors.Is(err, fs.ErrNotExist) {
					return failure{fmt.Errorf("no calibration at %s; run brewput calibrate", path)}
				}
				if err != nil {
					return failure{err}
				}
				fmt.Fprintf(e.stdout, "%s\n", path)
				writeCalibration(e.stdout, c)
				return nil
			}
			c, err := measureCalibration(cmd, e, how)
			if err != nil {
				return err
			}
			writeCalibration(e.stdout, c)
			if c, err = keepable(c, how.force); err != nil {
				return err
			}
			if err := calibrate.Save(path, c); err != nil {
				return failure{err}
			}
			fmt.Fprintf(e.stdout, "saved: %s\n", path)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "file to keep the calibration in, or to --show (default: the user's config folder, brewput/calibration.json)")
	cmd.Flags().IntVar(&how.samples, "samples", calibrate.Samples, "runs of each microbenchmark per repeat")
	cmd.Flags().IntVar(&how.repeats, "repeats", calibrate.Repeats, "repeats of every microbenchmark, for each cost's confidence interval")
	cmd.Flags().Var(&wait, "wait", "longest to wait for a quiet machine before measuring")
	cmd.Flags().BoolVar(&how.force, "force", false, "save the calibration even if other processes were busy while it measured")
	cmd.Flags().BoolVar(&show, "show", false, "print the saved calibration instead of measuring")
	return cmd
}

// measureCalibration waits for a quiet machine (at most how.wait), runs the
// microbenchmarks and records the host; Others is the larger of what other
// processes used just before and while it measured.
func measureCalibration(cmd *cobra.Command, e *env, how calibration) (calibrate.Calibration, error) {
	ctx := cmd.Context()
	before, waited, err := calibrate.WaitQuiet(ctx, how.wait, 500*time.Millisecond, calibrate.QuietBelow)
	if err == nil && before >= calibrate.QuietBelow {
		fmt.Fprintf(e.stderr, "calibrate: the machine stayed busy for %v (other processes used %.2f CPUs); measuring anyway\n", waited.Round(time.Second), before)
	}
	var c calibrate.Calibration
	if err == nil {
		c, err = calibrate.Measure(ctx, calibrate.Options{Samples: how.samples, Repeats: how.repeats})
	}
	if err != nil {
		if ctx.Err() != nil {
			return c, interrupted{fmt.Errorf("interrupted while calibrating; nothing saved")}
		}
		return c, failure{err}
	}
	c.Host = sweep.DetectHost()
	c.Others = max(c.Others, before)
	c.Waited = waited
	return c, nil
}

// keepable refuses, unless forced, a calibration measured while other
// processes were busy; a forced one is marked so.
func keepable(c calibrate.Calibration, force bool) (calibrate.Calibration, error) {
	if c.Others < calibrate.QuietBelow {
		return c, nil
	}
	if force {
		c.Forced = true
		return c, nil
	}
	return c, failure{fmt.Errorf("not saved: other processes used %.2f CPUs while calibrating (quiet is under %.1f); run brewput calibrate again on a quiet machine, or keep this one with --force", c.Others, calibrate.QuietBelow)}
}

// writeCalibration prints the costs with their intervals as a small table
// and where and when they were measured.
func writeCalibration(w io.Writer, c calibrate.Calibration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cost\tmedian\t95% interval\tp5\tp95\t")
	dist := map[string]string{"wake": "wake_ns", "spin wake": "spin_wake_ns", "switch": "switch_ns",
		"mutex handoff": "mutex_handoff_ns", "chan handoff": "chan_handoff_ns", "buf chan handoff": "buf_chan_handoff_ns"}
	for _, r := range c.Rows() {
		p5, p95 := "-", "-"
		if d := c.Dists[dist[r.Name]]; len(d) == 101 {
			p5, p95 = d[5].String(), d[95].String()
		}
		fmt.Fprintf(tw, "%s\t%v\t%v – %v\t%s\t%s\t\n", r.Name, r.Median, r.Lo, r.Hi, p5, p95)
	}
	tw.Flush()
	when := "an unknown date"
	if !c.Date.IsZero() {
		when = c.Date.UTC().Format("2006-01-02 15:04 MST")
	}
	fmt.Fprintf(w, "%d repeats of %d samples each on %s (%s, %s), %s; other processes used %.2f CPUs meanwhile",
		max(c.Repeats, 1), c.Samples, c.Host.Name, c.Host.CPUModel, c.Host.GoVersion, when, c.Others)
	if c.Forced {
		fmt.Fprint(w, "; saved with --force")
	}
	fmt.Fprintln(w)
	if c.Note != "" {
		fmt.Fprintf(w, "note: %s\n", c.Note)
	}
}
