// Package predict turns a study of the coffee shop's modes, or a system
// described in YAML, into the model's predictions: it resolves the go
// policy's costs (given, or from a calibration, measured the first time),
// checks a study's size against a memory budget before anything runs, and
// simulates it, each point stamped with where its costs were measured.
//
// Its errors name the options as brewput's flags do (--sched, --switch,
// --calibration, --model), so that a command line can pass them on as they
// are.
package predict

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Options say which model predicts: its scheduling policy, seed and
// runtime, and where the go policy's costs come from.
type Options struct {
	Sched   string // go or fifo
	Runtime string // "" for today's, or go1.9
	Seed    uint64 // of the random step durations
	// Calibration is the file of the go policy's costs; "" for the
	// default one, measured and saved there if missing.
	Calibration string
	// Costs are the go policy's costs as given: those named in Given
	// replace the calibration's, and with all of them given no
	// calibration is read.
	Costs sim.Costs
	// Given names the options given: each cost's (see CostNames),
	// "calibration" and "runtime".
	Given []string
	// Band also simulates each go-policy point at the edges of its
	// costs' confidence intervals.
	Band bool
	// PointsOnly leaves out each point's causal profile: one simulation
	// a point (and its band's edges), no limit named.
	PointsOnly bool
	// MaxMem is the most memory, in bytes, the simulations may take.
	MaxMem float64
	// Others is the CPUs' worth of work other processes do on the
	// machine, in bursts of OthersBurst (go policy only; see
	// sim.Background): 0 for a machine to itself.
	Others      float64
	OthersBurst time.Duration
}

// CostNames are the names of the go policy's costs that can be given, as
// calibrate.Calibration.Override takes them, in the order they are told.
func CostNames() []string {
	return []string{"switch", "wake", "spin-wake", "spin-window", "mutex-handoff", "chan-handoff", "buf-chan-handoff", "runnext-grace", "mutex-spin"}
}

// given reports whether the option name was given.
func (o Options) given(name string) bool { return slices.Contains(o.Given, name) }

// Prediction is what the model needs to simulate a study: the policy with
// its costs and seed, and where those costs were measured.
type Prediction struct {
	model.Policy
	Host   results.Host // where the costs were measured
	Source string       // where the costs came from: "calibration FILE", "the cost flags"
	// Cal names the calibration on every point (nil under fifo).
	Cal *results.Calibration
	// Depth says whether Run gives each point its causal profile.
	Depth limits.Depth
}

// Check refuses options that do not go together, before any cost is
// looked for.
func (o Options) Check() error {
	switch {
	case o.Sched != "go" && o.Sched != "fifo":
		return fmt.Errorf("--sched %q: want go or fifo", o.Sched)
	case o.Runtime != "" && o.Runtime != string(sim.RuntimeGo19):
		return fmt.Errorf("--runtime %q: want %s, or leave it out for today's runtime", o.Runtime, sim.RuntimeGo19)
	case o.Runtime != "" && o.Sched != "go":
		return fmt.Errorf("--runtime: applies to --sched go only")
	case !(o.Others >= 0) || math.IsInf(o.Others, 1):
		return fmt.Errorf("--others %v: want the CPUs other processes take, from 0 up, such as 0.5", o.Others)
	case o.Others > 0 && o.Sched != "go":
		return fmt.Errorf("--others: applies to --sched go only (fifo is the machine to itself)")
	case o.Others > 0 && o.OthersBurst <= 0:
		return fmt.Errorf("--others-burst %v: want a positive duration such as 1ms", o.OthersBurst)
	}
	return nil
}

// Resolve checks o and finds the go policy's costs: from o.Costs where all
// are given, otherwise from the calibration file, which is measured and
// saved first if it is the default one and missing (tell hears how that
// goes). A calibration that fails is as calibrate.Failed says.
func Resolve(ctx context.Context, o Options, tell func(line string)) (Prediction, error) {
	pr := Prediction{Policy: model.Policy{Sched: o.Sched, Seed: o.Seed, Runtime: o.Runtime}}
	if o.PointsOnly {
		pr.Depth = limits.PointsOnly
	}
	if o.Others > 0 {
		pr.Background = sim.Background{CPUs: o.Others, Burst: o.OthersBurst}
	}
	if err := o.Check(); err != nil {
		return pr, err
	}
	all := true
	for _, name := range CostNames() {
		if !o.given(name) {
			all = false
			continue
		}
		if o.Sched != "go" {
			return pr, fmt.Errorf("--%s: costs apply to --sched go only", name)
		}
		if d := *calibrate.Field(&o.Costs, name); d < 0 {
			return pr, fmt.Errorf("--%s %v: want zero or a positive duration such as 2us", name, d)
		}
	}
	if o.Sched == "fifo" {
		if o.given("calibration") {
			return pr, fmt.Errorf("--calibration: costs apply to --sched go only")
		}
		return pr, nil
	}
	pr.Source = "the cost flags"
	var cal calibrate.Calibration
	if !all {
		var path string
		var err error
		if cal, path, err = Load(ctx, o.Calibration, tell); err != nil {
			return pr, err
		}
		pr.Source = "calibration " + path
	}
	for _, name := range CostNames() {
		if o.given(name) {
			cal.Override(name, *calibrate.Field(&o.Costs, name))
			if !all {
				pr.Source += " with --" + name
			}
		}
	}
	if in := cal.Inferred; in != nil {
		switch {
		case !o.given("runtime"):
			pr.Runtime = in.Runtime
		case o.Runtime != in.Runtime:
			return pr, fmt.Errorf("--runtime %q: the calibration %s holds costs inferred under %s, which are that scheduler's; leave --runtime out to follow it", o.Runtime, o.Calibration, runtimeName(in.Runtime))
		}
	}
	ref := cal.Ref()
	pr.Costs, pr.Host, pr.Cal = cal.Costs, cal.Host, &ref
	if o.Band {
		pr.Range = cal.Range()
	}
	return pr, nil
}

// runtimeName names a runtime as Options.Runtime gives it.
func runtimeName(r string) string {
	if r == "" {
		return "today's runtime"
	}
	return "the " + r + " runtime"
}

// Load reads the calibration at path, or the default calibration where
// path is "", measuring this machine and saving it there the first time
// (tell hears how that goes); it returns the file's path too.
func Load(ctx context.Context, path string, tell func(line string)) (calibrate.Calibration, string, error) {
	if path != "" {
		cal, err := calibrate.Load(path)
		if err != nil {
			return cal, "", fmt.Errorf("--calibration: %w", err)
		}
		return cal, path, nil
	}
	cal, path, err := calibrate.Default(ctx, tell)
	return cal, path, calibrate.Failed(ctx, err)
}

// Calibrated is the main job's prediction: the go policy with this
// machine's calibration (see Load), seed 1, with its band.
func Calibrated(ctx context.Context, tell func(line string)) (*Prediction, error) {
	cal, path, err := Load(ctx, "", tell)
	if err != nil {
		return nil, err
	}
	ref := cal.Ref()
	return &Prediction{Policy: model.Policy{Sched: "go", Seed: 1, Costs: cal.Costs, Range: cal.Range()},
		Host: cal.Host, Source: "calibration " + path, Cal: &ref}, nil
}

// ConfigOf is the model configuration of a study's point.
func ConfigOf(s sweep.Spec) model.Config {
	return model.Config{
		Mode: s.Mode, CPUs: s.CPUs, Customers: s.Par, Rate: s.Rate, MaxQ: s.MaxQ, Harness: s.Harness,
		Grind: s.Steps.Grind, Press: s.Steps.Press, Steam: s.Steps.Steam, Combine: s.Steps.Combine, Jitter: s.Steps.Jitter,
		Warmup: s.Warmup, Duration: s.Dur, Burn: s.Steps.Clock.String(),
	}
}

// Configs turns a study's points into model configurations under pr.
func (pr Prediction) Configs(st *sweep.Batch) []model.Config {
	var cfgs []model.Config
	for _, s := range st.Specs {
		cfgs = append(cfgs, pr.Apply(ConfigOf(s)))
	}
	return cfgs
}

// Stamp gives every point the host of pr's costs and names their
// calibration.
func (pr Prediction) Stamp(points []results.Point) {
	for i := range points {
		points[i].Host, points[i].Calibration = pr.Host, pr.Cal
	}
}

// Describe says which model pr is, where its costs came from and which
// machine's they are.
func (pr Prediction) Describe() string {
	machine := ""
	if pr.Cal != nil && pr.Cal.Host != "none" {
		machine = pr.Cal.For()
	}
	return limits.Setting(pr.Policy, pr.Source, machine)
}

// BlueprintOptions are a YAML model's options for a study's point: its
// load, if given, its window, and the policy.
func (pr Prediction) BlueprintOptions(s sweep.Spec) blueprint.Options {
	return blueprint.Options{Customers: s.Par, Rate: s.Rate, Warmup: s.Warmup, Duration: s.Dur, Seed: pr.Seed, Sched: pr.Sched, Costs: pr.Costs, Runtime: sim.Runtime(pr.Runtime), Background: pr.Background}
}

// Parallelism is how many simulations run at once: one a CPU.
func Parallelism() int { return runtime.NumCPU() }

// CheckSize refuses, before anything is simulated, a study (of the shop's
// modes, or of bp where it is not nil) of points points whose simulations
// would take more memory than o.MaxMem, or more events than one
// simulation may process, or whose points would not fit in memory: its
// error says the estimate and the limit. Only o's Sched, Seed, Band and
// MaxMem count.
func CheckSize(o Options, st *sweep.Batch, bp *blueprint.Blueprint, points int) error {
	l := model.Limits{Bytes: o.MaxMem, Events: model.MaxEvents}
	limit := func(err error) error {
		if err == nil {
			return nil
		}
		return fmt.Errorf("%w; --max-mem is %s (by default half this machine's memory)", err, format.Bytes(o.MaxMem))
	}
	band := o.Band && o.Sched == "go"
	if bp != nil {
		opt := (Prediction{Policy: model.Policy{Seed: o.Seed, Sched: o.Sched}}).BlueprintOptions(st.Specs[0])
		for _, n := range st.CPUs() {
			opt.CPUs = n
			fp := bp.Footprint(opt)
			if band {
				fp.Events *= 5
			}
			if err := fp.Check(model.Limits{Bytes: l.Bytes / float64(Parallelism()), Events: l.Events}); err != nil {
				return limit(fmt.Errorf("--model %s on %d CPU(s) %w", bp.File, n, err))
			}
		}
		return limit(model.CheckRun(nil, points, 1, l))
	}
	cfgs := (Prediction{Policy: model.Policy{Sched: o.Sched, Seed: o.Seed}}).Configs(st)
	if band {
		for i := range cfgs {
			cfgs[i].Range = &model.Range{} // a band's corners: five simulations, not one
		}
	}
	return limit(model.CheckRun(cfgs, points, Parallelism(), l))
}

// stamped is add with pr's stamp on each point first.
func (pr Prediction) stamped(add func(*results.Point) error) func(*results.Point) error {
	return func(p *results.Point) error {
		p.Host, p.Calibration = pr.Host, pr.Cal
		return add(p)
	}
}

// Study predicts a measured study's modes from 1 to cpus CPUs. A mode the
// model cannot simulate under the study's load (noop in a closed loop
// takes no time) is left out, and so is any mode whose prediction fails,
// each told to skip unless ctx ended: the measurements stand either way.
func (pr Prediction) Study(ctx context.Context, st *sweep.Batch, cpus int, skip func(error)) []results.Point {
	var counts []int
	for n := 1; n <= cpus; n++ {
		counts = append(counts, n)
	}
	cfgs := pr.Configs(st)
	for i := range cfgs {
		cfgs[i].Cancel = ctx.Done()
	}
	points, skipped := limits.PredictModes(cfgs, counts)
	for _, err := range skipped {
		if ctx.Err() == nil {
			skip(err)
		}
	}
	pr.Stamp(points)
	return points
}

// Check checks a study for the model before anything runs or any cost is
// looked for, and returns how many points it makes: its size against
// o's memory budget (CheckSize), and each configuration of the shop's
// modes (model.Config.Validate, its error naming --modes). A study of bp,
// where not nil, is bp on each of the study's CPU counts.
func Check(o Options, st *sweep.Batch, bp *blueprint.Blueprint) (points int, err error) {
	points = st.Total()
	if bp != nil {
		points = len(st.CPUs()) * st.Count
	}
	if err := o.Check(); err != nil {
		return points, err
	}
	if err := CheckSize(o, st, bp, points); err != nil {
		return points, err
	}
	if cpus := st.CPUs(); o.Others > 0 && len(cpus) > 0 && o.Others >= float64(slices.Min(cpus)) {
		return points, fmt.Errorf("--others %v: want less than the fewest CPUs simulated, %d: other processes taking them all would leave the program none", o.Others, slices.Min(cpus))
	}
	if bp == nil {
		for _, cfg := range (Prediction{Policy: model.Policy{Seed: o.Seed}}).Configs(st) {
			if err := cfg.Validate(); err != nil {
				return points, fmt.Errorf("--modes: %w", err)
			}
		}
	}
	return points, nil
}

// Run simulates the study's configurations, or bp on the study's CPU
// counts where bp is not nil, each with its causal profile (unless
// pr.Depth says PointsOnly) and stamped
// with the prediction's setting, rounds as the study counts them, handing
// each point to add as soon as it is simulated. It is the one way the CLI
// simulates a set of configurations.
func (pr Prediction) Run(ctx context.Context, st *sweep.Batch, bp *blueprint.Blueprint, add func(*results.Point) error) ([]results.Point, error) {
	if bp == nil {
		return limits.Simulate(ctx, pr.Configs(st), st.Count, pr.Depth, pr.stamped(add))
	}
	points, err := limits.SimulateBlueprint(ctx, bp, st.CPUs(), st.Count, pr.Depth, pr.BlueprintOptions(st.Specs[0]), pr.stamped(add))
	if serr := (*limits.SimulationError)(nil); errors.As(err, &serr) {
		err = fmt.Errorf("--model %w", err)
	}
	return points, err
}
