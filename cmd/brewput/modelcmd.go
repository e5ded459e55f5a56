package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/brewput/brewput/blueprint"
	"github.com/brewput/brewput/calibrate"
	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sim"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// modelFlags are brewput model's own flags, beside the study's.
type modelFlags struct {
	maxMem                            float64 // bytes
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
	f.maxMem = host.MemoryBudget()
	fs.Var((*cliflag.Bytes)(&f.maxMem), "max-mem", "most memory the simulations may take, estimated before they start: a size such as 4GB (default half this machine's memory)")
	fs.Lookup("max-mem").DefValue = "" // the machine's, said in the usage
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
	var format, outFile string
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
			sf.simulated = true
			st, err := sf.plan(cmd.Flags(), host.ModelMaxCPUs)
			if err != nil {
				return err
			}
			for _, name := range []string{"burn", "profile", "noisy"} {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("--%s: applies to measurements only; the model's steps take virtual time", name)
				}
			}
			// Everything the user gave is checked before the go policy's
			// costs are looked for, which may mean measuring them.
			var bp *blueprint.Blueprint
			if mf.file != "" {
				if bp, err = loadBlueprint(cmd.Flags(), mf.file); err != nil {
					return err
				}
			}
			total := st.Total()
			if bp != nil {
				total = len(st.CPUs()) * st.Count
			}
			if err := mf.checkSize(st, bp, total); err != nil {
				return err
			}
			if bp == nil {
				for _, cfg := range (prediction{Policy: model.Policy{Seed: mf.seed}}).configs(st) {
					if err := cfg.Validate(); err != nil {
						return fmt.Errorf("--modes: %w", err)
					}
				}
			}
			out, err := outputOf(e, cmd.Flags(), format, outFile, results.Plan{Command: "model", Points: total})
			if err != nil {
				return err
			}
			pr, err := mf.resolve(cmd, e)
			if err != nil {
				return err
			}
			var points []results.Point
			if bp != nil {
				points, err = pr.simulateBlueprint(cmd.Context(), bp, st, out.Add)
			} else {
				points, err = pr.simulate(cmd.Context(), pr.configs(st), st.Count, out.Add)
			}
			if ferr := out.Finish(points, err == nil); ferr != nil {
				return failure{Err: ferr}
			}
			if len(points) > 0 && (out.Format == results.Table || out.Out != nil) { // below the table; JSON points say it in their bottleneck's model
				fmt.Fprintf(e.stdout, "\n%s\n", pr.describe())
			}
			return exitcode.Ended(err, len(points), total, "points", "what was simulated")
		},
	}
	d := defaultStudy()
	d.warmup = 100 * time.Millisecond
	sf.register(cmd.Flags(), d)
	cmd.Flags().Lookup("cpus").DefValue = fmt.Sprintf("1-%d", max(8, runtime.NumCPU()))
	cmd.Flags().Set("cpus", fmt.Sprintf("1-%d", max(8, runtime.NumCPU())))
	cmd.Flags().MarkHidden("noisy") // a measurement's, refused here
	mf.register(cmd.Flags())
	cmd.Flags().BoolVar(&mf.band, "band", true, "go policy: also simulate each point at the edges of the costs' confidence intervals and give the band of throughput and median latency they span")
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(results.Formats(), ", ")+" (with --out, guessed from its extension)")
	cmd.Flags().StringVar(&outFile, "out", "", "write the results to this file, each point as soon as it is simulated (the table still goes to stdout)")
	return cmd
}

// checkSize refuses, before anything is simulated, a study whose
// simulations would take more memory than --max-mem (by default half this
// machine's), or more events than one simulation may process, or whose
// points would not fit in memory: its error says the estimate and the
// limit.
func (f *modelFlags) checkSize(st *sweep.Study, bp *blueprint.Blueprint, points int) error {
	l := model.Limits{Bytes: f.maxMem, Events: model.MaxEvents}
	limit := func(err error) error {
		if err == nil {
			return nil
		}
		return fmt.Errorf("%w; --max-mem is %s (by default half this machine's memory)", err, model.FormatBytes(f.maxMem))
	}
	if bp != nil {
		opt := (prediction{Policy: model.Policy{Seed: f.seed, Sched: f.sched}}).blueprintOptions(st.Specs[0])
		for _, n := range st.CPUs() {
			opt.CPUs = n
			fp := bp.Footprint(opt)
			if f.band && f.sched == "go" {
				fp.Events *= 5
			}
			if err := fp.Check(model.Limits{Bytes: l.Bytes / float64(parallelism()), Events: l.Events}); err != nil {
				return limit(fmt.Errorf("--model %s on %d CPU(s) %w", bp.File, n, err))
			}
		}
		return limit(model.CheckRun(nil, points, 1, l))
	}
	cfgs := (prediction{Policy: model.Policy{Sched: f.sched, Seed: f.seed}}).configs(st)
	if f.band && f.sched == "go" {
		for i := range cfgs {
			cfgs[i].Range = &model.Range{} // a band's corners: five simulations, not one
		}
	}
	return limit(model.CheckRun(cfgs, points, parallelism(), l))
}

// parallelism is how many simulations run at once: one a CPU.
func parallelism() int { return runtime.NumCPU() }

// simulate simulates cfgs rounds times over, a CPU's worth of points at a
// time, each point with its causal profile and the host of pr's costs,
// handing each to add as soon as it is simulated (causal.Simulate).
func (pr prediction) simulate(ctx context.Context, cfgs []model.Config, rounds int, add func(*results.Point) error) ([]results.Point, error) {
	return causal.Simulate(ctx, cfgs, rounds, parallelism(), pr.stamped(add))
}

// simulateBlueprint simulates a YAML model on each CPU count of the study,
// rounds times over, with its load unless --par or --rate override it, as
// simulate does (causal.SimulateBlueprint).
func (pr prediction) simulateBlueprint(ctx context.Context, bp *blueprint.Blueprint, st *sweep.Study, add func(*results.Point) error) ([]results.Point, error) {
	points, err := causal.SimulateBlueprint(ctx, bp, st.CPUs(), st.Count, pr.blueprintOptions(st.Specs[0]), pr.stamped(add))
	if serr := (*causal.SimulationError)(nil); errors.As(err, &serr) {
		err = fmt.Errorf("--model %w", err)
	}
	return points, err
}

// stamped is add with pr's stamp on each point first.
func (pr prediction) stamped(add func(*results.Point) error) func(*results.Point) error {
	return func(p *results.Point) error {
		p.Host, p.Calibration = pr.host, pr.cal
		return add(p)
	}
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
func (pr prediction) predictStudy(ctx context.Context, e *env, st *sweep.Study) []results.Point {
	var cpus []int
	for n := 1; n <= predictCPUs(); n++ {
		cpus = append(cpus, n)
	}
	cfgs := pr.configs(st)
	for i := range cfgs {
		cfgs[i].Cancel = ctx.Done()
	}
	points, skipped := causal.PredictModes(cfgs, cpus)
	for _, err := range skipped {
		if ctx.Err() == nil {
			fmt.Fprintln(e.stderr, err)
		}
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
