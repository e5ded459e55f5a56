package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/brewput/brewput/blueprint"
	"github.com/brewput/brewput/calibrate"
	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sim"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// modelFlags are brewput model's own flags, beside the study's.
type modelFlags struct {
	seed                              uint64
	band                              bool // brewput model only
	sched, calibration, file, runtime string
	costs                             sim.Costs // as the cost flags give them
}

func (f *modelFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.file, "model", "", "simulate the system described in this YAML file (see examples/) instead of the coffee shop's modes")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random step durations (--jitter); the same seed gives the same output")
	fs.StringVar(&f.sched, "sched", "go", "how the virtual CPUs are scheduled: go (the Go runtime's scheduler, with its measured costs) or fifo (idealized CPUs, free handoffs)")
	fs.StringVar(&f.runtime, "runtime", "", "go policy: follow this Go runtime's scheduler code where versions differ: empty for today's, or go1.9 (the talk's: a starving mutex hands over without yielding)")
	fs.StringVar(&f.calibration, "calibration", "", "file of the go policy's costs, from brewput calibrate (default: the user's config folder; measured and saved there if missing)")
	for _, c := range costFlags(&f.costs) {
		fs.Var((*cliflag.Duration)(c.into), c.name, "go policy: "+c.usage+", instead of the calibration's")
	}
}

// costFlags names each cost flag, says what it is, and where in c it goes.
func costFlags(c *sim.Costs) []struct {
	name, usage string
	into        *time.Duration
} {
	return []struct {
		name, usage string
		into        *time.Duration
	}{
		{"switch", "goroutine switch cost", &c.Switch},
		{"wake", "idle-P wake-up cost", &c.Wake},
		{"spin-wake", "cost of a spinning idle P taking a goroutine", &c.SpinWake},
		{"spin-window", "how long an idle P spins before it sleeps", &c.SpinWindow},
		{"mutex-handoff", "cost of an Unlock that wakes a waiter", &c.MutexHandoff},
		{"chan-handoff", "cost of an unbuffered channel handoff", &c.ChanHandoff},
		{"buf-chan-handoff", "cost of a buffered channel handoff", &c.BufChanHandoff},
	}
}

// prediction is what brewput model needs to simulate a study: the policy
// with its costs and seed, and where those costs were measured.
type prediction struct {
	model.Policy
	host   results.Host // where the costs were measured
	source string       // where the costs came from: "calibration FILE", "the cost flags"
	// cal names the calibration on every point (nil under fifo).
	cal *results.Calibration
}

// resolve checks the model flags and finds the go policy's costs: from the
// flags where all are given, otherwise from the calibration file, which is
// measured and saved first if it is the default one and missing.
func (f *modelFlags) resolve(cmd *cobra.Command, e *env) (prediction, error) {
	fs := cmd.Flags()
	pr := prediction{Policy: model.Policy{Sched: f.sched, Seed: f.seed, Runtime: f.runtime}}
	switch {
	case f.sched != "go" && f.sched != "fifo":
		return pr, fmt.Errorf("--sched %q: want go or fifo", f.sched)
	case f.runtime != "" && f.runtime != string(sim.RuntimeGo19):
		return pr, fmt.Errorf("--runtime %q: want %s, or leave it out for today's runtime", f.runtime, sim.RuntimeGo19)
	case f.runtime != "" && f.sched != "go":
		return pr, fmt.Errorf("--runtime: applies to --sched go only")
	}
	given := costFlags(&f.costs)
	all := true
	for _, c := range given {
		if !fs.Changed(c.name) {
			all = false
			continue
		}
		if f.sched != "go" {
			return pr, fmt.Errorf("--%s: costs apply to --sched go only", c.name)
		}
		if *c.into < 0 {
			return pr, fmt.Errorf("--%s %v: want zero or a positive duration such as 2us", c.name, *c.into)
		}
	}
	if f.sched == "fifo" {
		if fs.Changed("calibration") {
			return pr, fmt.Errorf("--calibration: costs apply to --sched go only")
		}
		return pr, nil
	}
	pr.source = "the cost flags"
	var cal calibrate.Calibration
	if !all {
		var path string
		var err error
		if cal, path, err = f.loadCalibration(cmd, e); err != nil {
			return pr, err
		}
		pr.source = "calibration " + path
	}
	for _, c := range given {
		if fs.Changed(c.name) {
			cal.Override(c.name, *c.into)
			if !all {
				pr.source += " with --" + c.name
			}
		}
	}
	ref := cal.Ref()
	pr.Costs, pr.host, pr.cal = cal.Costs, cal.Host, &ref
	if f.band {
		pr.Range = model.NewRange(cal.Lo, cal.Hi)
	}
	return pr, nil
}

// loadCalibration reads --calibration, or the default calibration,
// measuring this machine and saving it there the first time; it returns
// the file's path too.
func (f *modelFlags) loadCalibration(cmd *cobra.Command, e *env) (calibrate.Calibration, string, error) {
	if f.calibration != "" {
		cal, err := calibrate.Load(f.calibration)
		if err != nil {
			return cal, "", fmt.Errorf("--calibration: %w", err)
		}
		return cal, f.calibration, nil
	}
	cal, path, err := calibrate.Default(cmd.Context(), func(line string) { fmt.Fprintln(e.stderr, line) })
	return cal, path, calibrationError(cmd, err)
}

// configOf is the model configuration of a study's point.
func configOf(s sweep.Spec) model.Config {
	return model.Config{
		Mode: s.Mode, CPUs: s.CPUs, Customers: s.Par, Rate: s.Rate, MaxQ: s.MaxQ, Harness: s.Harness,
		Grind: s.Steps.Grind, Press: s.Steps.Press, Steam: s.Steps.Steam, Combine: s.Steps.Combine, Jitter: s.Steps.Jitter,
		Warmup: s.Warmup, Duration: s.Dur,
	}
}

// configs turns a study's points into model configurations under pr.
func (pr prediction) configs(st *sweep.Study) []model.Config {
	var cfgs []model.Config
	for _, s := range st.Specs {
		cfgs = append(cfgs, pr.Apply(configOf(s)))
	}
	return cfgs
}

// predict simulates cfgs rounds times over, each point with its causal
// profile (model.Rounds with causal.Predict), with the host of the costs.
func (pr prediction) predict(cfgs []model.Config, rounds int) ([]results.Point, error) {
	points, err := model.Rounds(cfgs, rounds, causal.Predict)
	pr.stamp(points)
	return points, err
}

// stamp gives every point the host of pr's costs and names their
// calibration.
func (pr prediction) stamp(points []results.Point) {
	for i := range points {
		points[i].Host, points[i].Calibration = pr.host, pr.cal
	}
}

// describe says which model pr is, and where its costs came from.
func (pr prediction) describe() string { return causal.Setting(pr.Policy, pr.source, pr.host.Name) }

func newModelCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	mf := &modelFlags{}
	var format, out string
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Predict the modes' throughput and latency on up to 256 virtual CPUs, in virtual time",
		Long: `model simulates each mode in virtual time instead of measuring it: the same
goroutines, locks, channels and steps as the real mode, on as many virtual
CPUs as asked (up to 256), deterministically and in a fraction of a second
a point. --dur is simulated time.

Every point says "source": "model" and carries the analytic bounds beside
the simulation: the CPU bound, the structural bound of the most-held
resource, the resulting ceiling on throughput and floor on latency, and
Little's law as a check. Its bottleneck is its causal profile's answer:
the model run again with each resource relieved a little, one at a time,
and the resource whose relief gains the most (see brewput advise). The
table ends with the model and the calibration it used.

--sched go (the default) schedules the virtual CPUs as the Go runtime does:
per-P run queues with a runnext slot, work stealing, 10 ms time slices,
sync.Mutex's barging and starvation mode, and the runtime's own costs for
switching goroutines, waking an idle P and handing over a lock or a channel
value. Those costs are measured on this machine by brewput calibrate (run
once automatically) or given as flags. --sched fifo is the idealized
machine: free handoffs, first come first served, the analytic numbers
exactly. Under the go policy each point carries a band: the throughput and
median latency it spans when the costs move across their calibration's
confidence intervals (--band=false leaves it out); the table's range column
and footer show it and the calibration, every point names it. --runtime
go1.9 follows the talk's runtime where it differs from today's.

--harness talk simulates the talk's own harness (a generator hands the
customers their requests over a channel, an aggregator takes their
durations over another) instead of brewput's. A point's warm-up is at least
three of its longest cycle, so that it is in its steady state; a closed
loop's row says where Little's law is off by more than 2 %.

--model FILE simulates a system described in YAML instead of the shop's
modes: steps with fixed or random durations, resources with capacities,
pipelines joined by buffers, parallel branches, closed or open load. See
examples/ and the README.

The same flags and seed give byte-identical output.`,
		Example: `  brewput model --modes ideal,locking,finelocking,multi-2,linearpipe-0,linearpipe-1 --cpus 1-16 --dur 60s
  brewput model --model examples/cafe.yaml --cpus 1-16 --sched fifo
  brewput model --modes locking --cpus 6 --par 100 --sched fifo
  brewput model --modes linearpipe-0,linearpipe-1 --jitter 1ms --cpus 1-8 --format json --out pipes.json`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := sf.plan(cmd.Flags(), host.ModelMaxCPUs)
			if err != nil {
				return err
			}
			for _, name := range []string{"burn", "profile"} {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("--%s: applies to measurements only; the model's steps take virtual time", name)
				}
			}
			f, dest, err := outputOf(cmd.Flags(), format, out)
			if err != nil {
				return err
			}
			// Everything the user gave is checked before the go policy's
			// costs are looked for, which may mean measuring them.
			discard := func(err error) error {
				if dest != nil {
					dest.Discard()
				}
				return err
			}
			var bp *blueprint.Blueprint
			if mf.file != "" {
				if bp, err = loadBlueprint(cmd.Flags(), mf.file); err != nil {
					return discard(err)
				}
			} else {
				for _, cfg := range (prediction{Policy: model.Policy{Seed: mf.seed}}).configs(st) {
					if err := cfg.Validate(); err != nil {
						return discard(fmt.Errorf("--modes: %w", err))
					}
				}
			}
			pr, err := mf.resolve(cmd, e)
			if err != nil {
				return discard(err)
			}
			var points []results.Point
			if bp != nil {
				points, err = pr.predictBlueprint(bp, st)
			} else {
				points, err = pr.predict(pr.configs(st), st.Count)
			}
			if err != nil {
				return discard(failure{err})
			}
			if err := emit(e, f, dest, points); err != nil {
				return failure{err}
			}
			if f == results.Table || dest != nil { // below the table; JSON points say it in their bottleneck's model
				fmt.Fprintf(e.stdout, "\n%s\n", pr.describe())
			}
			return nil
		},
	}
	d := defaultStudy()
	d.warmup = 100 * time.Millisecond
	sf.register(cmd.Flags(), d)
	cmd.Flags().Lookup("cpus").DefValue = fmt.Sprintf("1-%d", max(8, runtime.NumCPU()))
	cmd.Flags().Set("cpus", fmt.Sprintf("1-%d", max(8, runtime.NumCPU())))
	mf.register(cmd.Flags())
	cmd.Flags().BoolVar(&mf.band, "band", true, "go policy: also simulate each point at the edges of the costs' confidence intervals and give the band of throughput and median latency they span")
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(results.Formats(), ", ")+" (with --out, guessed from its extension)")
	cmd.Flags().StringVar(&out, "out", "", "write the results to this file (the table still goes to stdout)")

	return cmd
}

// predictCPUs is how far the main job's predictions go: to 8 CPUs, the
// talk's full picture, or to the machine's count if it has more.
func predictCPUs() int { return max(8, runtime.NumCPU()) }

// studyPrediction is the main job's prediction: the go policy with this
// machine's calibration.
func studyPrediction(cmd *cobra.Command, e *env) (*prediction, error) {
	cal, path, err := (&modelFlags{}).loadCalibration(cmd, e)
	if err != nil {
		return nil, err
	}
	ref := cal.Ref()
	return &prediction{Policy: model.Policy{Sched: "go", Seed: 1, Costs: cal.Costs, Range: model.NewRange(cal.Lo, cal.Hi)},
		host: cal.Host, source: "calibration " + path, cal: &ref}, nil
}

// predictStudy predicts the main job's study from 1 to predictCPUs CPUs. A
// mode the model cannot simulate under the study's load (noop in a closed
// loop takes no time) is reported as measured only, and so is any mode
// whose prediction fails, with a note: the measurements stand either way.
func (pr prediction) predictStudy(e *env, st *sweep.Study) []results.Point {
	var cpus []int
	for n := 1; n <= predictCPUs(); n++ {
		cpus = append(cpus, n)
	}
	points, skipped := causal.PredictModes(pr.configs(st), cpus)
	for _, err := range skipped {
		fmt.Fprintln(e.stderr, err)
	}
	pr.stamp(points)
	return points
}

// loadBlueprint reads the YAML model in path, refusing the study flags that
// belong to the coffee shop's modes: the file says its own steps and load.
func loadBlueprint(fs *pflag.FlagSet, path string) (*blueprint.Blueprint, error) {
	for _, name := range []string{"modes", "grind", "press", "steam", "latte", "jitter", "burn", "maxq", "harness"} {
		if fs.Changed(name) {
			return nil, fmt.Errorf("--%s: applies to the coffee shop's modes, not to --model %s (its file says its steps and load)", name, path)
		}
	}
	bp, err := blueprint.Load(path)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	return bp, nil
}

// blueprintOptions are a YAML model's options for a study's point: its
// load, if given, its window, and the policy.
func (pr prediction) blueprintOptions(s sweep.Spec) blueprint.Options {
	return blueprint.Options{Customers: s.Par, Rate: s.Rate, Warmup: s.Warmup, Duration: s.Dur, Seed: pr.Seed, Sched: pr.Sched, Costs: pr.Costs, Runtime: sim.Runtime(pr.Runtime)}
}

// predictBlueprint simulates a YAML model on each CPU count of the study,
// with its load unless --par or --rate override it.
func (pr prediction) predictBlueprint(bp *blueprint.Blueprint, st *sweep.Study) ([]results.Point, error) {
	points, err := causal.Sweep(bp, st.CPUs(), st.Count, pr.blueprintOptions(st.Specs[0]))
	if err != nil {
		return nil, fmt.Errorf("--model %w", err)
	}
	pr.stamp(points)
	return points, nil
}
