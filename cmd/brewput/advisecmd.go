package main

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/blueprint"
	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/predict"
	"github.com/spf13/cobra"
)

func newAdviseCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	mf := &modelFlags{}
	var mode, format string
	cmd := &cobra.Command{
		Use:   "advise",
		Short: "Find what limits a mode and what would help, by experiment in the model, ranked by gain",
		Long: `advise asks the model what would help one system: a mode of the coffee shop
(--mode) or a system described in YAML (--model), on one CPU count, under
one load. It simulates the system as it is and its causal profile: the
same system with each resource relieved a little, one at a time — each
step 10 % shorter, one more machine (or resource unit, or stage worker) of
each kind, the kitchen lock held for less, twice the buffer of each
channel, one more CPU with the same customers and with one more, twice the
customers — and, where no single relief helps, the smallest combination
that does. The resource whose relief gains the most is what limits it (the
point's bottleneck, as brewput model gives it). Beside the profile it
tries the structural changes the talk discusses:

  another copy of each machine (finelocking → multi-2, a pipeline → two lines)
  buffers between a pipeline's stages (linearpipe-0 → linearpipe-1)
  a split critical section (locking → finelocking, finelocking → parsteam,
    linearpipe → splitpipe)
  twice the CPUs

and, for a YAML system, one more unit of every resource at once. All are
ranked by predicted throughput gain (gains within 1 % are equal), those
that make latency 5 % worse or more last, then by cost (machines and CPUs
dearer than locks, goroutines and buffer memory), then by the fall in
median latency.

The first line answers the question, naming what limits the system as
its bottleneck does; the next says which model and calibration were used;
the table backs it. The model's flags (--sched, --seed, --calibration, the
cost flags) work as in brewput model.`,
		Example: `  brewput advise --mode finelocking --cpus 6
  brewput advise --mode linearpipe-0 --cpus 4 --jitter 1ms
  brewput advise --mode locking --cpus 8 --sched fifo --format json
  brewput advise --model examples/cafe.yaml --cpus 4`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fs := cmd.Flags()
			switch {
			case format != "table" && format != "json":
				return fmt.Errorf("--format %q: want table or json", format)
			case mode != "" && mf.file != "":
				return fmt.Errorf("--mode and --model: give one or the other, not both")
			case mode == "" && mf.file == "":
				return fmt.Errorf("give --mode NAME (see brewput list) or --model FILE to advise on")
			}
			sf.Simulated = true
			s, err := sf.planOne(fs, host.ModelMaxCPUs, mode, "advise", 6)
			if err != nil {
				return err
			}
			var bp *blueprint.Blueprint
			if mf.file != "" {
				if bp, err = loadBlueprint(fs, mf.file); err != nil {
					return err
				}
			}
			if err := predict.CheckAdvice(mf.options(fs), s, bp); err != nil {
				return err
			}
			pr, err := mf.resolve(cmd, e)
			if err != nil {
				return err
			}
			a, err := pr.Advise(cmd.Context(), s, bp)
			if cmd.Context().Err() != nil {
				return interrupted{Err: fmt.Errorf("interrupted while simulating; no advice yet")}
			}
			if err != nil {
				return failure{Err: err}
			}
			if format == "json" {
				return a.WriteJSON(e.stdout)
			}
			return a.WriteTable(e.stdout)
		},
	}
	// The study's flags that make sense for one system, and the model's.
	d := defaultStudy()
	d.warmup = 100 * time.Millisecond
	sf.registerOne(cmd, d, "the CPU count to advise at, one number", "par", "rate", "interval", "maxq", "grind", "press", "steam", "latte", "jitter", "dur", "warmup")
	cmd.Flags().StringVar(&mode, "mode", "", "the mode to advise on (see brewput list)")
	mf.register(cmd.Flags())
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	return cmd
}
