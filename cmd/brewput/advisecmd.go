package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/brewput/brewput/advise"
	"github.com/brewput/brewput/blueprint"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newAdviseCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	mf := &modelFlags{}
	var mode, format string
	cmd := &cobra.Command{
		Use:   "advise",
		Short: "Try structural changes to a mode in the model and rank them by what they gain",
		Long: `advise asks the model what would help one system: a mode of the coffee shop
(--mode) or a system described in YAML (--model), on one CPU count, under
one load. It simulates the system as it is, names what limits it, then
tries the changes the talk discusses:

  another copy of each machine (finelocking → multi-2, a pipeline → two lines)
  another copy of the busiest machine only
  a buffer between pipeline stages (linearpipe-0 → linearpipe-1)
  a split critical section (locking → finelocking, finelocking → parsteam,
    linearpipe → splitpipe)
  a shorter critical section (the busiest step, or every step, a quarter shorter)
  twice the CPUs, twice the customers (or servers)

and, for a YAML system, one more unit of each resource. The changes are
ranked by predicted throughput gain (gains within 1 % are equal), those
that make latency 5 % worse or more last, then by cost (machines and CPUs dearer than locks, goroutines and buffer memory),
then by the fall in median latency.

The first line answers the question; the table backs it. The model's flags
(--sched, --seed, --calibration, the cost flags) work as in brewput model.`,
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
			case strings.Contains(mode, ","):
				return fmt.Errorf("--mode %q: advise takes one mode; run it once for each", mode)
			}
			if mode != "" {
				m, err := coffee.ParseMode(mode)
				if err != nil {
					return fmt.Errorf("--mode: %w", err)
				}
				mode = m.String()
			}
			sf.modes = mode
			if mf.file != "" {
				sf.modes = "noop" // any mode: the file's system replaces it
			}
			st, err := sf.plan(fs, sweep.ModelMaxCPUs)
			if err != nil {
				return err
			}
			if len(st.specs) != 1 {
				return fmt.Errorf("--cpus %s: advise takes one CPU count, such as --cpus 6", sf.cpus)
			}
			s := st.specs[0]
			var bp *blueprint.Blueprint
			var cfg model.Config
			if mf.file != "" {
				if bp, err = loadBlueprint(fs, mf.file); err != nil {
					return err
				}
			} else {
				cfg = model.Config{
					Mode: s.Mode, CPUs: s.CPUs, Customers: s.Par, Rate: s.Rate, MaxQ: s.MaxQ,
					Grind: s.Steps.Grind, Press: s.Steps.Press, Steam: s.Steps.Steam, Combine: s.Steps.Combine, Jitter: s.Steps.Jitter,
					Warmup: s.Warmup, Duration: s.Dur, Seed: mf.seed,
				}
				if err := cfg.Validate(); err != nil {
					return fmt.Errorf("--mode: %w", err)
				}
			}
			pr, err := mf.resolve(cmd, e)
			if err != nil {
				return err
			}
			var a *advise.Advice
			if bp != nil {
				a, err = advise.Blueprint(bp, blueprint.Options{
					CPUs: s.CPUs, Customers: s.Par, Rate: s.Rate, Warmup: s.Warmup, Duration: s.Dur,
					Seed: pr.seed, Sched: pr.sched, Costs: pr.costs,
				})
			} else {
				cfg.Sched, cfg.Costs = pr.sched, pr.costs
				a, err = advise.Mode(cfg)
			}
			if err != nil {
				return failure{err}
			}
			a.Calibration = pr.describe()
			if format == "json" {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(a)
			}
			return writeAdvice(e.stdout, a)
		},
	}
	// The study's flags that make sense for one system, and the model's.
	all := pflag.NewFlagSet("study", pflag.ContinueOnError)
	d := defaultStudy()
	d.warmup = 100 * time.Millisecond
	sf.register(all, d)
	for _, name := range []string{"cpus", "par", "rate", "interval", "maxq", "grind", "press", "steam", "latte", "jitter", "dur", "warmup"} {
		cmd.Flags().AddFlag(all.Lookup(name))
	}
	cmd.Flags().Lookup("cpus").Usage = "the CPU count to advise at, one number"
	cmd.Flags().Lookup("cpus").DefValue = fmt.Sprint(runtime.NumCPU())
	cmd.Flags().Set("cpus", fmt.Sprint(runtime.NumCPU()))
	cmd.Flags().Lookup("cpus").Changed = false
	cmd.Flags().StringVar(&mode, "mode", "", "the mode to advise on (see brewput list)")
	mf.register(cmd.Flags())
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	return cmd
}

// writeAdvice prints the answer, then the table of every change tried.
func writeAdvice(w io.Writer, a *advise.Advice) error {
	fmt.Fprintln(w, a.Answer)
	fmt.Fprintf(w, "\n%s\n%s now: %.0f %s, median latency %.2f ms, p99 %.2f ms. %s\n\n",
		a.Calibration, a.System, a.Now.Throughput, a.Unit, a.Now.P50Ms, a.Now.P99Ms, a.Now.Bottleneck.Text)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tchange\tbecomes\tthroughput\tgain\tp50 ms\tp99 ms\tlatency\tcost\t")
	for i, o := range a.Options {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.0f\t%s\t%.2f\t%.2f\t%s\t%s\t\n", i+1, o.Change, o.As, o.Throughput,
			pct(o.ThroughputGain), o.P50Ms, o.P99Ms, pct(-o.LatencyGain), o.Cost)
	}
	return tw.Flush()
}

// pct writes a relative change as a signed percentage, with no "-0 %".
func pct(f float64) string {
	v := math.Round(100 * f)
	if v == 0 {
		return "0 %"
	}
	return fmt.Sprintf("%+.0f %%", v)
}
