// Package predict turns a study of the shop's modes, or a YAML system,
// into the model's predictions: it resolves the go policy's costs, checks
// the study's size, and simulates it. Its errors name brewput's flags.
package predict

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// Options say which model predicts, as brewput's flags do.
type Options struct {
	Sched string // go or fifo
	Seed  uint64 // of the random step durations
	// Calibration is the file of the go policy's costs; "" for the
	// default one, measured (by Measure, nil: the usual way) if missing.
	Calibration string
	Measure     calibrate.Measurer
	// Costs named in Given (CostNames, "calibration") replace the
	// calibration's, which is not read if all are.
	Costs sim.Costs
	Given []string
	// Band simulates each go-policy point at its costs' intervals' edges
	// too; PointsOnly leaves out each point's causal profile.
	Band, PointsOnly bool
	MaxMem           float64 // bytes
	Others           float64 // CPUs other processes take (go only)
	OthersBurst      time.Duration
	// Machine is "this", "unknown", or "" for this one where no point has
	// more CPUs than it, else an unknown one of MaxCPUs.
	Machine string
	MaxCPUs int
}

// CostNames are the costs that can be given, as calibrate.Field names them.
func CostNames() []string {
	return []string{"switch", "wake", "spin-wake", "spin-window", "mutex-handoff", "chan-handoff", "buf-chan-handoff", "runnext-grace", "mutex-spin", "runtime-lock", "transfer"}
}

func (o Options) given(name string) bool { return slices.Contains(o.Given, name) }

// Prediction is a study's policy, and where its costs came from.
type Prediction struct {
	model.Policy
	Host     results.Host         // where the costs were measured
	Source   string               // "calibration FILE", "the cost flags"
	Cal      *results.Calibration // the calibration every point names (nil under fifo)
	Depth    limits.Depth         // whether Run gives each point its causal profile
	Hardware model.Hardware       // the machine predicted for (go only)
	local    *model.Policy        // this machine's, for points on no more CPUs than it has (For)
}

// Check refuses options that do not go together.
func (o Options) Check() error {
	switch {
	case o.Sched != "go" && o.Sched != "fifo":
		return fmt.Errorf("--sched %q: want go or fifo", o.Sched)
	case o.Machine != "" && o.Machine != "this" && o.Machine != "unknown":
		return fmt.Errorf("--machine %q: want this or unknown", o.Machine)
	case o.Machine != "" && o.Sched != "go":
		return fmt.Errorf("--machine: applies to --sched go only (fifo's CPUs are ideal)")
	case !(o.Others >= 0) || math.IsInf(o.Others, 1):
		return fmt.Errorf("--others %v: want the CPUs other processes take, from 0 up, such as 0.5", o.Others)
	case o.Others > 0 && o.Sched != "go":
		return fmt.Errorf("--others: applies to --sched go only (fifo is the machine to itself)")
	case o.Others > 0 && o.OthersBurst <= 0:
		return fmt.Errorf("--others-burst %v: want a positive duration such as 1ms", o.OthersBurst)
	}
	return nil
}

// Resolve checks o and finds the go policy's costs (see Load).
func Resolve(ctx context.Context, o Options, tell func(line string)) (Prediction, error) {
	pr := Prediction{Policy: model.Policy{Policy: results.Policy{Sched: o.Sched, Seed: o.Seed}}}
	if o.PointsOnly {
		pr.Depth = limits.PointsOnly
	}
	if o.Others > 0 {
		pr.Background = results.Background{CPUs: o.Others, Burst: o.OthersBurst}
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
		if cal, path, err = Load(ctx, o.Calibration, o.Measure, tell); err != nil {
			return pr, err
		}
		pr.Source = Source(path, cal)
	}
	for _, name := range CostNames() {
		if o.given(name) {
			cal.Override(name, *calibrate.Field(&o.Costs, name))
			if !all {
				pr.Source += " with --" + name
			}
		}
	}
	ref := cal.Ref()
	pr.Costs, pr.Host, pr.Cal = cal.Costs, cal.Host, &ref
	if o.Band {
		pr.Range = cal.Range()
	}
	hw := o.hardware(pr.Costs, cal.Unknown())
	if o.Machine == "" && hw.Name != "this" && !cal.Unknown() {
		// This machine's own costs up to its CPUs; an unknown one's past.
		local := pr
		local.Use(Options{Machine: "this"}.hardware(pr.Costs, false))
		pr.local = &local.Policy
	}
	pr.Use(hw)
	return pr, nil
}

// For is the policy of a point on cpus CPUs (this machine's, where local).
func (pr Prediction) For(cpus int) model.Policy {
	if pr.local != nil && cpus <= runtime.NumCPU() {
		return *pr.local
	}
	return pr.Policy
}

// hardware is the machine o predicts for, with costs for this one;
// unknown says this machine's costs are not known: it is then an unknown
// machine of its CPUs, or of the most CPUs asked where more.
func (o Options) hardware(costs sim.Costs, unknown bool) model.Hardware {
	name := o.Machine
	if name == "" {
		name = "this"
		if o.MaxCPUs > runtime.NumCPU() || unknown {
			name = "unknown"
		}
	}
	if name == "this" && unknown {
		cpus := max(runtime.NumCPU(), o.MaxCPUs)
		hw := model.UnknownHardware(cpus)
		hw.Name, hw.About = "this", "this machine as "+text.UnknownMachine(cpus, hw.Threaded)+", its own costs not known"
		return o.givenTransfer(hw, costs)
	}
	if name == "unknown" {
		cpus := max(1, o.MaxCPUs)
		if unknown {
			cpus = max(cpus, runtime.NumCPU())
		}
		hw := model.UnknownHardware(cpus)
		hw.About = text.UnknownMachine(cpus, hw.Threaded)
		return o.givenTransfer(hw, costs)
	}
	hw := model.MeasuredHardware("this", sim.Machine{}, costs.Transfer, text.ThisMachine(runtime.NumCPU(), costs.Transfer.Socket == 0))
	return hw
}

// givenTransfer is hw with --transfer's cost, where given.
func (o Options) givenTransfer(hw model.Hardware, costs sim.Costs) model.Hardware {
	if o.given("transfer") {
		hw.Transfer.Socket, hw.Lo.Socket, hw.Hi.Socket = costs.Transfer.Socket, costs.Transfer.Socket, costs.Transfer.Socket
		hw.About += "; moving a line between cores " + costs.Transfer.Socket.String() + " as --transfer says"
	}
	return hw
}

// Use makes pr a prediction for machine hw: its shape, the cost of moving
// a cache line there and the band spanning what is not known.
func (pr *Prediction) Use(hw model.Hardware) {
	pr.Hardware = hw
	pr.Machine = hw.Shape
	pr.Policy.Policy.Machine = hw.About
	pr.Costs.Transfer, pr.Costs.AllCore = hw.Transfer, hw.AllCore
	if r := pr.Range; r != nil {
		rr := *r
		if m := hw.Range(); m != nil {
			rr.Machine = m
		}
		pr.Range = &rr
	}
}

// Source names where cal, loaded from path ("": measured for this run,
// not saved), came from.
func Source(path string, cal calibrate.Calibration) string {
	switch {
	case cal.Unknown():
		return "the reference calibration"
	case cal.SetAside != nil:
		return "the last quiet calibration in " + path
	case path == "":
		return "a calibration measured for this run"
	}
	return "calibration " + path
}

// Load reads the calibration at path, or the default one (calibrate.Default,
// tell hearing how it goes), hedged (a busy machine's set aside), and its
// path: "" where it was not saved.
func Load(ctx context.Context, path string, measure calibrate.Measurer, tell func(line string)) (calibrate.Calibration, string, error) {
	if path != "" {
		cal, err := calibrate.Load(path)
		if err != nil {
			return cal, "", fmt.Errorf("--calibration: %w", err)
		}
		return cal.Hedged(), path, nil
	}
	cal, path, err := calibrate.Default(ctx, measure, text.CalibrationTeller(tell))
	return cal.Hedged(), path, calibrate.Failed(ctx, err)
}

// Calibrated is the main job's: go with this machine's costs and band.
func Calibrated(ctx context.Context, measure calibrate.Measurer, tell func(line string)) (*Prediction, error) {
	pr, err := Resolve(ctx, Options{Sched: "go", Seed: 1, Band: true, Machine: "this", Measure: measure}, tell)
	return &pr, err
}

// Config is the model's configuration of the study's point s under pr, or
// of bp (its own steps, no band) at s's CPUs and load where not nil.
func (pr Prediction) Config(s shopsweep.Spec, bp *blueprint.Blueprint) model.Config {
	load := s.Load.Load
	if bp != nil {
		load.MaxQ, load.Harness = 0, ""
		return pr.For(s.CPUs).Apply(model.Config{System: bp, Spec: results.Spec{Mode: bp.Name, CPUs: s.CPUs, Load: load}})
	}
	cfg := pr.For(s.CPUs).Apply(model.Config{Spec: results.Spec{Mode: s.Mode.String(), CPUs: s.CPUs, Load: load,
		Policy: results.Policy{Burn: s.Steps.Clock.String()}}, Steps: s.Steps, Variant: s.Variant})
	if r := cfg.Range; r != nil && r.Machine != nil {
		// The shop's steps are times a slower core does not lengthen: its
		// band spans the calibration's costs alone.
		rr := *r
		rr.Machine = nil
		cfg.Range = &rr
	}
	return cfg
}

// configs are st's configurations under pr (bp on each CPU count).
func (pr Prediction) configs(st *shopsweep.Batch, bp *blueprint.Blueprint) []model.Config {
	var cfgs []model.Config
	if bp == nil {
		for _, s := range st.Specs {
			cfgs = append(cfgs, pr.Config(s, nil))
		}
		return cfgs
	}
	for _, n := range st.CPUs() {
		s := st.Specs[0]
		s.CPUs = n
		cfgs = append(cfgs, pr.Config(s, bp))
	}
	return cfgs
}

// Describe says which model pr is, and what its band spans.
func (pr Prediction) Describe() string {
	machine := ""
	if pr.Cal != nil && pr.Cal.Host != "none" {
		machine = text.CalibrationFor(*pr.Cal)
	}
	whose := ""
	if pr.Cal != nil && pr.Cal.SetAside != nil && pr.Cal.SetAside.Reference {
		whose = calibrate.ReferenceHost
	}
	c := pr.Policy.Costs
	s := text.ModelSetting(pr.Policy.Policy, c.Wake, c.MutexHandoff, c.ChanHandoff, pr.Source, machine, whose)
	if pr.Cal != nil && pr.Policy.Range != nil && text.CalibrationCovers(*pr.Cal) != "" {
		s += "; " + text.CalibrationCovers(*pr.Cal)
	}
	if about := pr.Policy.Policy.Machine; about != "" {
		if pr.local != nil {
			s += text.ForThisMachine(runtime.NumCPU(), about)
		} else {
			s += "; for " + about
		}
	}
	return s
}

// CheckSize refuses a study (of bp where not nil) of points points whose
// simulations would take more than o.MaxMem or MaxEvents.
func CheckSize(o Options, st *shopsweep.Batch, bp *blueprint.Blueprint, points int) error {
	cfgs := (Prediction{Policy: model.Policy{Policy: results.Policy{Sched: o.Sched, Seed: o.Seed}}}).configs(st, bp)
	for i := range cfgs {
		if o.Band && o.Sched == "go" {
			cfgs[i].Range = &model.Range{Hi: sim.Costs{Wake: 1, SpinWindow: 1}} // a band of four corners
		}
	}
	depth := limits.EveryRelief
	if o.PointsOnly {
		depth = limits.PointsOnly
	}
	sims := make([]int, len(cfgs))
	for i, c := range cfgs {
		sims[i] = limits.Simulations(c, depth)
	}
	err := model.CheckRun(cfgs, sims, points, runtime.NumCPU(), model.Limits{Bytes: o.MaxMem, Events: model.MaxEvents, Work: model.MaxWork, Pilot: model.PilotTime})
	switch {
	case err == nil:
		return nil
	case bp != nil:
		err = fmt.Errorf("--model %s: %w", bp.File, err)
	}
	return fmt.Errorf("%w; --max-mem is %s (by default half this machine's memory)", err, format.Bytes(o.MaxMem))
}

// Study predicts a measured study's modes on 1 to cpus CPUs; a mode that
// fails (noop in a closed loop) is told to skip unless ctx ended.
func (pr Prediction) Study(ctx context.Context, st *shopsweep.Batch, cpus int, skip func(error)) []results.Point {
	var cfgs []model.Config
	var modes []string
	for _, s := range st.Specs {
		c := pr.Config(s, nil)
		if slices.Contains(modes, c.Mode) {
			continue
		}
		modes = append(modes, c.Mode)
		for n := 1; n <= cpus; n++ {
			c.CPUs = n
			cfgs = append(cfgs, c)
		}
	}
	var points, mode []results.Point
	var failed error
	limits.CausalProfiles(ctx, cfgs, limits.EveryRelief, func(i int, p *limits.CausalProfile, err error) error {
		if err == nil {
			mode = append(mode, p.Point())
		} else if failed == nil {
			failed = fmt.Errorf("no prediction for %s: %w", cfgs[i].Mode, err)
		}
		if (i+1)%cpus > 0 { // the mode's last CPU count comes last
			return nil
		}
		if failed == nil {
			points = append(points, mode...)
		} else if ctx.Err() == nil {
			skip(failed)
		}
		mode, failed = nil, nil
		return nil
	})
	for i := range points {
		points[i].Host, points[i].Calibration = pr.Host, pr.Cal
	}
	return points
}

// Check checks a study (of bp where not nil) before any cost is looked
// for; an invalid mode is flag's error.
func Check(o Options, st *shopsweep.Batch, bp *blueprint.Blueprint, flag string) (points int, err error) {
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
		for _, cfg := range (Prediction{Policy: model.Policy{Policy: results.Policy{Seed: o.Seed}}}).configs(st, nil) {
			if err := cfg.Validate(); err != nil {
				return points, fmt.Errorf("%s: %w", flag, err)
			}
		}
	}
	return points, nil
}

// Run simulates st.Count rounds of st's configurations, each with the
// next seed, handing each point to add.
func (pr Prediction) Run(ctx context.Context, st *shopsweep.Batch, bp *blueprint.Blueprint, add func(*results.Point) error) ([]results.Point, error) {
	round := pr.configs(st, bp)
	var cfgs []model.Config
	for rep := range st.Count {
		for _, c := range round {
			c.Policy.Seed += uint64(rep)
			cfgs = append(cfgs, c)
		}
	}
	var points []results.Point
	err := limits.CausalProfiles(ctx, cfgs, pr.Depth, func(i int, prof *limits.CausalProfile, err error) error {
		if err != nil {
			if bp != nil {
				return fmt.Errorf("--model %s: %w", bp.File, err)
			}
			return err
		}
		p := prof.Point()
		if st.Count > 1 {
			p.Rep = i/len(round) + 1
		}
		p.Host, p.Calibration = pr.Host, pr.Cal
		if err := add(&p); err != nil {
			return err
		}
		points = append(points, p)
		return nil
	})
	return points, err
}

// WhyConfig is the model's configuration of the point brewput why explains.
func WhyConfig(s shopsweep.Spec, seed uint64) (model.Config, error) {
	cfg := Prediction{}.Config(s, nil)
	cfg.Warmup, cfg.Dur, cfg.Policy.Seed = 100*time.Millisecond, time.Second, seed
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("--mode: %w", err)
	}
	return cfg, nil
}

// CausalProfile is cfg's causal profile under pr's policy, without a band.
func (pr Prediction) CausalProfile(ctx context.Context, cfg model.Config) (*limits.CausalProfile, error) {
	cfg.Policy.Sched, cfg.Costs = pr.Sched, pr.Costs
	var prof *limits.CausalProfile
	err := limits.CausalProfiles(ctx, []model.Config{cfg}, limits.EveryRelief, func(_ int, p *limits.CausalProfile, err error) error {
		prof = p
		return err
	})
	return prof, err
}

// CheckAdvice checks advice on s (or bp) before any cost is looked for:
// s, and s on twice the CPUs and customers, the most it simulates.
func CheckAdvice(o Options, s shopsweep.Spec, bp *blueprint.Blueprint) error {
	doubled := s
	doubled.CPUs, doubled.Par = 2*s.CPUs, 2*s.Par
	_, err := Check(o, &shopsweep.Batch{Specs: []shopsweep.Spec{s, doubled}, Count: 1}, bp, "--mode")
	return err
}

// Advise is limits.Advise of pr.Config(s, bp), saying which model.
func (pr Prediction) Advise(ctx context.Context, s shopsweep.Spec, bp *blueprint.Blueprint) (*limits.Advice, error) {
	a, err := limits.Advise(ctx, pr.Config(s, bp))
	if err != nil {
		return nil, err
	}
	a.Calibration = pr.Describe()
	return a, nil
}
