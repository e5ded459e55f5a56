//go:build !js

package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/internal/predict"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/schedule"
)

func newScheduleCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	mf := &modelFlags{}
	var mode, from, out string
	span := schedule.Span
	cmd := &cobra.Command{
		Use:   "schedule [TRACE]",
		Short: "Draw which step ran on which CPU over 20 ms: the model's exact schedule, or a real one from an execution trace",
		RunE: func(cmd *cobra.Command, args []string) error {
			flags := cmd.Flags()
			useModel, useTrace, err := schedule.ParseFrom(from)
			if err != nil {
				return err
			}
			switch {
			case mode == "":
				return fmt.Errorf("--mode: give the mode to draw, such as --mode finelocking (see brewput list)")
			case useTrace && len(args) != 1:
				return fmt.Errorf("--from trace: give the trace file, such as brewput schedule --mode %s --from trace prof/%s-2cpu.trace", mode, mode)
			case !useTrace && len(args) > 0:
				return fmt.Errorf("%s: a trace file is drawn with --from trace (or model,trace)", args[0])
			case span < time.Millisecond || span > time.Second:
				return fmt.Errorf("--span %v: want a duration from 1ms to 1s, such as 20ms", span)
			}
			s, err := sf.planOne(flags, host.ModelMaxCPUs, mode, "schedule", 6)
			if err != nil {
				return err
			}
			if useTrace {
				if err := schedule.CheckTrace(args[0]); err != nil {
					return err
				}
			}
			if err := report.CheckDir(out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			cfg := predict.ConfigOf(s)
			cfg.Seed = mf.seed
			if err := cfg.Validate(); err != nil {
				return fmt.Errorf("--mode: %w", err)
			}
			var ts []schedule.Timeline
			if useModel {
				pr, err := mf.resolve(cmd, e)
				if err != nil {
					return err
				}
				t, err := schedule.FromModel(pr.Apply(cfg), span)
				if err != nil {
					return failure{Err: err}
				}
				ts = append(ts, t)
			}
			if useTrace {
				t, err := schedule.ReadTrace(args[0], s.Mode.String(), s.CPUs, span)
				if err != nil {
					return failure{Err: err}
				}
				ts = append(ts, t)
			}
			if err := schedule.WriteTexts(e.stdout, ts, 80); err != nil {
				return err
			}
			paths, err := report.WriteSchedules(out, ts)
			if err != nil {
				return failure{Err: err}
			}
			fmt.Fprintf(e.stdout, "\nschedule: %s (and .png)\n", strings.Join(paths, ", "))
			return nil
		},
	}
	d := defaultStudy()
	d.warmup = 100 * time.Millisecond
	sf.registerOne(cmd, d, "the CPU count to draw, one number", "par", "rate", "interval", "maxq", "grind", "press", "steam", "latte", "jitter", "warmup")
	fs := cmd.Flags()
	fs.StringVar(&mode, "mode", "", "the mode to draw (see brewput list)")
	fs.StringVar(&from, "from", "model", "what to draw: model (the model's exact schedule), trace (an execution trace given as TRACE) or model,trace")
	fs.Var((*cliflag.Duration)(&span), "span", "how much time to draw")
	fs.StringVar(&out, "out", ".", "folder to write the pictures to, as schedule-MODE-NCPU-model.svg and .png (-trace for a trace's)")
	fs.Uint64Var(&mf.seed, "seed", 1, "seed of the random step durations (--jitter)")
	mf.registerPolicy(fs)
	return cmd
}
