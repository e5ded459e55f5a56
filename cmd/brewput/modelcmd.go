package main

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/brewput/brewput/analysis"
	"github.com/brewput/brewput/blueprint"
	"github.com/brewput/brewput/calibrate"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sim"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// modelFlags are brewput model's own flags, beside the study's.
type modelFlags struct {
	seed                                  uint64
	band                                  bool
	sched, calibration, file, runtime     string
	wake, switchCost, mutexCost, chanCost durationFlag
	bufChanCost, spinWake, spinWindow     durationFlag
}

func (f *modelFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.file, "model", "", "simulate the system described in this YAML file (see examples/) instead of the coffee shop's modes")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random step durations (--jitter); the same seed gives the same output")
	fs.StringVar(&f.sched, "sched", "go", "how the virtual CPUs are scheduled: go (the Go runtime's scheduler, with its measured costs) or fifo (idealized CPUs, free handoffs)")
	fs.StringVar(&f.runtime, "runtime", "", "go policy: follow this Go runtime's scheduler code where versions differ: empty for today's, or go1.9 (the talk's: a starving mutex hands over without yielding)")
	fs.BoolVar(&f.band, "band", true, "go policy: also simulate each point at the edges of the costs' confidence intervals and give the band of throughput and median latency they span")
	fs.StringVar(&f.calibration, "calibration", "", "file of the go policy's costs, from brewput calibrate (default: the user's config folder; measured and saved there if missing)")
	fs.Var(&f.switchCost, "switch", "go policy: goroutine switch cost, instead of the calibration's")
	fs.Var(&f.wake, "wake", "go policy: idle-P wake-up cost, instead of the calibration's")
	fs.Var(&f.spinWake, "spin-wake", "go policy: cost of a spinning idle P taking a goroutine, instead of the calibration's")
	fs.Var(&f.spinWindow, "spin-window", "go policy: how long an idle P spins before it sleeps, instead of the calibration's")
	fs.Var(&f.mutexCost, "mutex-handoff", "go policy: cost of an Unlock that wakes a waiter, instead of the calibration's")
	fs.Var(&f.chanCost, "chan-handoff", "go policy: cost of an unbuffered channel handoff, instead of the calibration's")
	fs.Var(&f.bufChanCost, "buf-chan-handoff", "go policy: cost of a buffered channel handoff, instead of the calibration's")
}

// costFlags pairs each cost flag with the field it overrides.
func (f *modelFlags) costFlags(c *sim.Costs) []struct {
	name string
	flag *durationFlag
	into *time.Duration
} {
	return []struct {
		name string
		flag *durationFlag
		into *time.Duration
	}{
		{"switch", &f.switchCost, &c.Switch}, {"wake", &f.wake, &c.Wake},
		{"spin-wake", &f.spinWake, &c.SpinWake}, {"spin-window", &f.spinWindow, &c.SpinWindow},
		{"mutex-handoff", &f.mutexCost, &c.MutexHandoff}, {"chan-handoff", &f.chanCost, &c.ChanHandoff},
		{"buf-chan-handoff", &f.bufChanCost, &c.BufChanHandoff},
	}
}

// prediction is what brewput model needs to simulate a study: the policy
// and its costs, and where those costs came from.
type prediction struct {
	runtime string
	sched   string
	seed    uint64
	costs   sim.Costs
	host    results.Host // where the costs were measured
	// rng is the costs' uncertainty, for each point's band (nil: no
	// band); cal names the calibration for every point (nil under fifo).
	rng *model.Range
	cal *results.Calibration
}

// resolve checks the model flags and finds the go policy's costs: from the
// flags where all are given, otherwise from the calibration file, which is
// measured and saved first if it is the default one and missing.
func (f *modelFlags) resolve(cmd *cobra.Command, e *env) (prediction, error) {
	fs := cmd.Flags()
	pr := prediction{sched: f.sched, seed: f.seed, runtime: f.runtime}
	if f.sched != "go" && f.sched != "fifo" {
		return pr, fmt.Errorf("--sched %q: want go or fifo", f.sched)
	}
	switch {
	case f.runtime != "" && f.runtime != string(sim.RuntimeGo19):
		return pr, fmt.Errorf("--runtime %q: want %s, or leave it out for today's runtime", f.runtime, sim.RuntimeGo19)
	case f.runtime != "" && f.sched != "go":
		return pr, fmt.Errorf("--runtime: applies to --sched go only")
	}
	var given sim.Costs
	all := true
	for _, c := range f.costFlags(&given) {
		if !fs.Changed(c.name) {
			all = false
			continue
		}
		if f.sched != "go" {
			return pr, fmt.Errorf("--%s: costs apply to --sched go only", c.name)
		}
		if c.flag.get() < 0 {
			return pr, fmt.Errorf("--%s %v: want zero or a positive duration such as 2us", c.name, c.flag.get())
		}
		*c.into = c.flag.get()
	}
	if f.sched == "fifo" {
		if fs.Changed("calibration") {
			return pr, fmt.Errorf("--calibration: costs apply to --sched go only")
		}
		return pr, nil
	}
	var lo, hi sim.Costs
	var ref results.Calibration
	if !all {
		cal, err := f.loadCalibration(cmd, e)
		if err != nil {
			return pr, err
		}
		pr.costs, pr.host, lo, hi, ref = cal.Costs, cal.Host, cal.Lo, cal.Hi, cal.Ref()
	}
	var flagged []string
	for _, cs := range []*sim.Costs{&pr.costs, &lo, &hi} {
		for _, c := range f.costFlags(cs) {
			if fs.Changed(c.name) {
				*c.into = c.flag.get()
			}
		}
	}
	for _, c := range f.costFlags(&given) {
		if fs.Changed(c.name) {
			flagged = append(flagged, fmt.Sprintf("%s %v", c.name, c.flag.get()))
		}
	}
	if len(flagged) > 0 {
		note := "given as flags: " + strings.Join(flagged, ", ")
		if all {
			ref = results.Calibration{Host: "none", Costs: note}
		} else {
			ref.Costs += "; " + note
		}
	}
	pr.cal = &ref
	if f.band && lo != hi {
		pr.rng = &model.Range{Lo: lo, Hi: hi}
	}
	return pr, nil
}

// loadCalibration reads --calibration, or the default calibration,
// measuring this machine and saving it there the first time.
func (f *modelFlags) loadCalibration(cmd *cobra.Command, e *env) (calibrate.Calibration, error) {
	if f.calibration != "" {
		cal, err := calibrate.Load(f.calibration)
		if err != nil {
			return cal, fmt.Errorf("--calibration: %w", err)
		}
		return cal, nil
	}
	path, err := calibrate.DefaultPath()
	if err != nil {
		return calibrate.Calibration{}, failure{err}
	}
	cal, err := calibrate.Load(path)
	if err == nil {
		return cal, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return cal, failure{fmt.Errorf("calibration: %w", err)}
	}
	fmt.Fprintf(e.stderr, "measuring the Go runtime's costs for the go policy (once; brewput calibrate measures them again)…\n")
	cal, err = measureCalibration(cmd, e, defaultCalibration())
	if err != nil {
		return cal, err
	}
	// The first use keeps what it measured even on a busy machine, marked
	// as forced, so that every later run does not measure again; brewput
	// calibrate, run on purpose, is the one that refuses.
	busy := cal.Others >= calibrate.QuietBelow
	cal, _ = keepable(cal, true)
	if err := calibrate.Save(path, cal); err != nil {
		return cal, failure{err}
	}
	fmt.Fprintf(e.stderr, "saved the calibration to %s\n", path)
	if busy {
		fmt.Fprintf(e.stderr, "other processes used %.2f CPUs while it measured: run brewput calibrate on a quiet machine for costs to trust\n", cal.Others)
	}
	return cal, nil
}

// configs turns a study's points into model configurations.
func (pr prediction) configs(st *study) []model.Config {
	var cfgs []model.Config
	for rep := range st.count {
		for _, s := range st.specs {
			cfgs = append(cfgs, model.Config{
				Mode: s.Mode, CPUs: s.CPUs, Customers: s.Par, Rate: s.Rate, MaxQ: s.MaxQ, Harness: s.Harness,
				Sched: pr.sched, Costs: pr.costs, Range: pr.rng, Runtime: pr.runtime,
				Grind: s.Steps.Grind, Press: s.Steps.Press, Steam: s.Steps.Steam, Combine: s.Steps.Combine, Jitter: s.Steps.Jitter,
				Warmup: s.Warmup, Duration: s.Dur,
				Seed: pr.seed + uint64(rep),
			})
		}
	}
	return cfgs
}

// predict simulates every configuration, as many at once as there are
// CPUs (each simulation is independent and single-threaded), and returns
// the points in the configurations' order; reps number them when there are
// several rounds.
func (pr prediction) predict(cfgs []model.Config, rounds int) ([]results.Point, error) {
	points := make([]results.Point, len(cfgs))
	errs := make([]error, len(cfgs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), len(cfgs)) {
		wg.Go(func() {
			for i := range next {
				r, err := model.Run(cfgs[i])
				if err != nil {
					errs[i] = err
					continue
				}
				points[i] = r.Point(cfgs[i])
			}
		})
	}
	for i := range cfgs {
		next <- i
	}
	close(next)
	wg.Wait()
	per := len(cfgs) / rounds
	for i := range points {
		if errs[i] != nil {
			return nil, errs[i]
		}
		points[i].Host = pr.host
		points[i].Calibration = pr.cal
		if rounds > 1 {
			points[i].Rep = i/per + 1
		}
	}
	analysis.Annotate(points)
	return points, nil
}

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
Little's law as a check.

--sched go (the default) schedules the virtual CPUs as the Go runtime does:
per-P run queues with a runnext slot, work stealing, 10 ms time slices,
sync.Mutex's barging and starvation mode, and the runtime's own costs for
switching goroutines, waking an idle P and handing over a lock or a channel
value. Those costs are measured on this machine by brewput calibrate (run
once automatically) or given as flags. --sched fifo is the idealized
machine: free handoffs, first come first served, the analytic numbers
exactly.

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
			st, err := sf.plan(cmd.Flags(), sweep.ModelMaxCPUs)
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
					dest.discard()
				}
				return err
			}
			var bp *blueprint.Blueprint
			if mf.file != "" {
				if bp, err = loadBlueprint(cmd.Flags(), mf.file); err != nil {
					return discard(err)
				}
			} else {
				for _, cfg := range (prediction{seed: mf.seed}).configs(st) {
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
				points, err = pr.predict(pr.configs(st), st.count)
			}
			if err != nil {
				return discard(failure{err})
			}
			if err := emit(e, f, dest, points); err != nil {
				return failure{err}
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
	cal, err := (&modelFlags{}).loadCalibration(cmd, e)
	if err != nil {
		return nil, err
	}
	ref := cal.Ref()
	pr := &prediction{sched: "go", seed: 1, costs: cal.Costs, host: cal.Host, cal: &ref}
	if cal.Lo != cal.Hi {
		pr.rng = &model.Range{Lo: cal.Lo, Hi: cal.Hi}
	}
	return pr, nil
}

// predictStudy predicts the main job's study from 1 to predictCPUs CPUs. A
// mode the model cannot simulate under the study's load (noop in a closed
// loop takes no time) is reported as measured only, and so is any mode
// whose prediction fails, with a note: the measurements stand either way.
func (pr prediction) predictStudy(e *env, st *study) []results.Point {
	var points []results.Point
	seen := map[string]bool{}
	for _, c := range pr.configs(&study{specs: st.specs, count: 1}) {
		if seen[c.Mode] {
			continue
		}
		seen[c.Mode] = true
		var cfgs []model.Config
		for n := 1; n <= predictCPUs(); n++ {
			c.CPUs = n
			cfgs = append(cfgs, c)
		}
		predicted, err := pr.predict(cfgs, 1)
		if err != nil {
			fmt.Fprintf(e.stderr, "no prediction for %s: %v\n", c.Mode, err)
			continue
		}
		points = append(points, predicted...)
	}
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

// predictBlueprint simulates a YAML model on each CPU count of the study,
// with its load unless --par or --rate override it.
func (pr prediction) predictBlueprint(bp *blueprint.Blueprint, st *study) ([]results.Point, error) {
	var points []results.Point
	for rep := range st.count {
		seen := map[int]bool{}
		for _, s := range st.specs {
			if seen[s.CPUs] {
				continue
			}
			seen[s.CPUs] = true
			opt := blueprint.Options{
				CPUs: s.CPUs, Customers: s.Par, Rate: s.Rate, Warmup: s.Warmup, Duration: s.Dur,
				Seed: pr.seed + uint64(rep), Sched: pr.sched, Costs: pr.costs,
			}
			r, err := bp.Run(opt)
			if err != nil {
				return nil, fmt.Errorf("--model %s: %w", bp.File, err)
			}
			p := bp.Point(r, opt)
			p.Host = pr.host
			p.Calibration = pr.cal
			if st.count > 1 {
				p.Rep = rep + 1
			}
			points = append(points, p)
		}
	}
	analysis.Annotate(points)
	return points, nil
}
