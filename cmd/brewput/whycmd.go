package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/brewput/brewput/compare"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/predict"
	"github.com/brewput/brewput/why"
	"github.com/spf13/cobra"
)

func newWhyCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	mf := &modelFlags{}
	var mode, format string
	cmd := &cobra.Command{
		Use:   "why",
		Short: "Measure a point's causal profile on real CPUs, beside the model's",
		Long: `why asks what limits one mode on one CPU count, by experiment, twice: in
the model (its causal profile, as brewput advise and every point's
bottleneck give it) and on this machine's real CPUs. The shop's steps are
parameters and its structure has small variants, so each relief the model
tries is a real change too:

  a step 10 % shorter (--grind 0.9ms …)
  one more machine of a kind (a pool of two grinders, one more stage worker)
  the kitchen lock held for less (locking's combine outside it)
  twice the buffer of a pipeline's channel
  one more CPU, with or without one more customer (where the machine has it)
  twice the customers

why measures the point as it is and with each relief, --count times over in
rounds, each run in a child process pinned to its CPUs (as brewput run
does), and gives for each experiment the model's predicted gain beside the
measured gain, its range from the medians' 95 % intervals, the p-value of a
Mann-Whitney U test and a verdict (golang.org/x/perf/benchmath, as brewput
compare). It says which relief gained most on real CPUs, how many
experiments agree with the model, and which runs other processes disturbed.
A relief that needs more CPUs than the machine has is listed, not measured.

The model's flags (--sched, --calibration, the cost flags) work as in
brewput model.`,
		Example: `  brewput why --mode finelocking --cpus 2
  brewput why --mode linearpipe-0 --cpus 2 --count 10 --dur 1s
  brewput why --mode locking --cpus 2 --sched fifo --format json`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case format != "table" && format != "json":
				return fmt.Errorf("--format %q: want table or json", format)
			case mode == "":
				return fmt.Errorf("give --mode NAME (see brewput list) to explain")
			case mf.file != "":
				return fmt.Errorf("--model: why measures the shop's modes on real CPUs; for a YAML system, brewput advise --model %s gives its profile in the model", mf.file)
			case sf.Count < 2:
				return fmt.Errorf("--count %d: want 2 or more runs of each experiment (6 for a verdict)", sf.Count)
			}
			s, err := sf.planOne(cmd.Flags(), runtime.NumCPU(), mode, "why", 2)
			if err != nil {
				return err
			}
			cfg, err := predict.WhyConfig(s, mf.seed)
			if err != nil {
				return err
			}
			pr, err := mf.resolve(cmd, e)
			if err != nil {
				return err
			}
			profile, err := pr.Profile(cmd.Context(), cfg)
			if cmd.Context().Err() != nil {
				return interrupted{Err: fmt.Errorf("interrupted while simulating the causal profile; nothing measured")}
			}
			if err != nil {
				return failure{Err: err}
			}
			study, err := why.Plan(profile, s, runtime.NumCPU())
			if err != nil {
				return failure{Err: err}
			}
			study.Calibration = pr.Describe()
			runner, err := e.runner()
			if err != nil {
				return err
			}
			runErr := study.Run(cmd.Context(), sf.Count, runner.Run, e.stderr)
			study.Judge(compare.Options{})
			if err := study.Write(e.stdout, format); err != nil {
				return failure{Err: err}
			}
			return exitcode.Measured(runErr, len(study.BasePoints), sf.Count)
		},
	}
	d := defaultStudy()
	d.dur, d.warmup = 500*time.Millisecond, 100*time.Millisecond
	sf.registerOne(cmd, d, "the CPU count to explain, one number", "par", "rate", "interval", "maxq", "grind", "press", "steam", "latte", "jitter", "dur", "warmup", "burn", "count")
	setDefault(cmd, "count", "6", "runs of the point and of each relief, in rounds; 6 or more for a verdict")
	cmd.Flags().StringVar(&mode, "mode", "", "the mode to explain (see brewput list)")
	mf.register(cmd.Flags())
	cmd.Flags().Lookup("model").Hidden = true // why measures the shop's modes, not YAML systems
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	return cmd
}
