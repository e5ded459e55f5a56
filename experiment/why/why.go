// Package why answers "does what the model names hold on real CPUs?": it
// runs a shop point as it is and with each relief the model tried, and
// judges each measured gain, with its interval, beside the predicted one.
// Stretches does the same for a user's own code, as Coz does.
package why

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/causal"
)

// Check is one point's causal profile, predicted and measured.
type Check struct {
	// System names the point: "finelocking on 2 CPUs".
	System string `json:"system"`
	// Bottleneck is the model's verdict, with its experiments.
	Bottleneck results.Bottleneck `json:"bottleneck"`
	// Sched is the model's policy; Calibration says where its costs came
	// from, if known.
	Sched       string `json:"sched,omitempty"`
	Calibration string `json:"calibration,omitempty"`
	// Predicted is the model's throughput of the point as it is.
	Predicted float64 `json:"predicted"`
	Unit      string  `json:"unit"`
	// Base is the point as it is, and BasePoints its measurements.
	Base       shopsweep.Spec  `json:"base"`
	BasePoints []results.Point `json:"-"`
	// Experiments are the reliefs, in the model's order (its best first).
	Experiments []Experiment `json:"experiments"`
	// Within is the time Run may take from Since (else from its start):
	// it starts no round that would not end in it (0: no limit).
	Within time.Duration `json:"-"`
	Since  time.Time     `json:"-"`
	// Now is the model's point as it is, with its verdict; Label names a
	// relief's run in progress lines (report/text's ChangeText).
	Now   results.Point                   `json:"-"`
	Label func(results.Experiment) string `json:"-"`
}

// OutOfTime says a why experiment stopped at its time limit, undecided,
// after Rounds whole rounds.
type OutOfTime struct {
	Within time.Duration
	Rounds int
}

func (e *OutOfTime) Error() string {
	return fmt.Sprintf("stopped at its limit of %v after %s, rather than start a round that would not end in it", e.Within, format.Count(e.Rounds, "round"))
}

// Experiment is one relief: the model's prediction, what was run, and
// what it measured against the point as it is.
type Experiment struct {
	// Model is the model's experiment: the change and its predicted gain.
	Model results.Experiment `json:"model"`
	// Spec is what was run on real CPUs.
	Spec shopsweep.Spec `json:"spec"`
	// Skip says why it was not measured: "needs 3 CPUs; this machine has 2".
	Skip   string          `json:"skip,omitempty"`
	Points []results.Point `json:"-"`
	// Metrics compare its measurements with the point's as it is.
	Metrics []compare.Metric `json:"metrics,omitempty"`
	// Disturbed counts its runs and the base's that other processes took
	// CPU from.
	Disturbed int `json:"disturbed,omitempty"`
}

// Plan lays out the study of base from its causal profile pr: the point as
// it is and each relief as the model ran it; a relief that needs more than
// maxCPUs is kept with the reason it is not measured.
func Plan(pr *limits.CausalProfile, base shopsweep.Spec, maxCPUs int) (*Check, error) {
	if pr.Config == nil {
		return nil, fmt.Errorf("%s: not a mode of the shop; why measures the shop's modes", pr.System)
	}
	s := &Check{System: pr.System, Bottleneck: pr.Bottleneck, Predicted: pr.Now.Throughput, Unit: pr.Now.Unit,
		Base: SpecOf(*pr.Config, base), Sched: pr.Config.Policy.Sched, Now: pr.Point()}
	for _, tr := range pr.Trials {
		e := Experiment{Model: tr.Experiment, Spec: SpecOf(*tr.Config, base)}
		err := e.Spec.Validate()
		if e.Spec.CPUs > maxCPUs {
			err = fmt.Errorf("needs %d CPUs; this machine has %d", e.Spec.CPUs, maxCPUs)
		}
		if err != nil {
			e.Skip = err.Error()
		}
		s.Experiments = append(s.Experiments, e)
	}
	return s, nil
}

// SpecOf is the point to measure for the model's configuration c, with
// base's window, clock and profile.
func SpecOf(c model.Config, base shopsweep.Spec) shopsweep.Spec {
	s := base
	s.Mode, s.CPUs, s.Par, s.Rate, s.MaxQ = coffee.MustParseMode(c.Mode), c.CPUs, c.Par, c.Rate, c.MaxQ
	s.Steps.Grind, s.Steps.Press, s.Steps.Steam, s.Steps.Combine, s.Steps.Jitter = c.Steps.Grind, c.Steps.Press, c.Steps.Steam, c.Steps.Combine, c.Steps.Jitter
	s.Variant = c.Variant
	return s
}

// Run runs the point as it is and each experiment that can be measured
// here, count times each, in rounds (so that a slow spell of the machine
// falls on all alike), its progress told on w. It starts no round that
// would not end within s.Within (*OutOfTime), and keeps what it measured
// when it stops early.
func (s *Check) Run(ctx context.Context, count int, measure func(context.Context, shopsweep.Spec) (results.Point, error), w io.Writer) error {
	runs := s.runs()
	prog := sweep.NewBar(w, nil, s.Sweep(count)) // it keeps no profiles
	var points []results.Point
	defer func() { prog.Finish(points) }()
	began, origin := time.Now(), time.Now()
	if !s.Since.IsZero() {
		origin = s.Since
	}
	round := time.Duration(len(runs)) * (s.Base.Warmup + s.Base.Dur) // the runs' windows, warm-up included
	for rep := 1; rep <= count; rep++ {
		if rep > 1 {
			round = time.Since(began) / time.Duration(rep-1)
		}
		if s.Within > 0 && time.Since(origin)+round > s.Within {
			return &OutOfTime{Within: s.Within, Rounds: rep - 1}
		}
		for _, r := range runs {
			prog.Start(r.spec.Entry(), rep)
			p, err := measure(ctx, r.spec)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", s.System, r.what, err)
			}
			points = append(points, p) // told as measured, without its round
			prog.Done(points)
			p.Rep = rep
			*r.points = append(*r.points, p)
		}
	}
	return nil
}

// run is the point as it is, or an experiment.
type run struct {
	what   string
	spec   shopsweep.Spec
	points *[]results.Point
}

func (s *Check) runs() []run {
	out := []run{{"as it is", s.Base, &s.BasePoints}}
	for i := range s.Experiments {
		if e := &s.Experiments[i]; e.Skip == "" {
			what := e.Model.Kind
			if s.Label != nil {
				what = s.Label(e.Model)
			}
			spec := e.Spec
			spec.Label = what
			out = append(out, run{what, spec, &e.Points})
		}
	}
	return out
}

// Sweep is what Run runs, as a shopsweep.Batch.
func (s *Check) Sweep(count int) shopsweep.Batch {
	st := shopsweep.Batch{Count: count}
	for _, r := range s.runs() {
		st.Specs = append(st.Specs, r.spec)
	}
	return st
}

// Rounds is what Run is about to measure.
func (s *Check) Rounds(count int) causal.Rounds {
	st := s.Sweep(count)
	return causal.Rounds{Mode: s.Base.Mode.String(), Reliefs: len(st.Specs) - 1, Count: count, Runs: st.Total(),
		About: time.Duration(st.Total()) * (s.Base.Warmup + s.Base.Dur), Within: s.Within}
}

// Judge compares each measured experiment with the point as it is.
func (s *Check) Judge(opts compare.Options) {
	baseDisturbed := disturbed(s.BasePoints)
	for i := range s.Experiments {
		e := &s.Experiments[i]
		if len(e.Points) == 0 || len(s.BasePoints) == 0 {
			continue
		}
		e.Metrics = compare.Metrics(s.BasePoints, e.Points, opts)
		e.Disturbed = baseDisturbed + disturbed(e.Points)
	}
}

func disturbed(ps []results.Point) int { return collect.Count(ps, results.Point.IsDisturbed) }

// Throughput is the experiment's throughput comparison, if measured.
func (e Experiment) Throughput() (compare.Metric, bool) {
	if i := slices.IndexFunc(e.Metrics, func(m compare.Metric) bool { return m.Name == "throughput" }); i >= 0 {
		return e.Metrics[i], true
	}
	return compare.Metric{}, false
}

// Gain is the measured throughput gain, median over median, with the
// range the medians' intervals allow (infinite with too few runs).
func (e Experiment) Gain() (gain, lo, hi float64, ok bool) {
	m, ok := e.Throughput()
	if !ok || m.Old.Median <= 0 {
		return 0, 0, 0, false
	}
	return m.New.Median/m.Old.Median - 1, m.GainLo, m.GainHi, true
}

// Agrees says whether the measurement agrees with the model: the
// predicted gain lies in the measured range, or one above limits.MinGain
// is measured significantly better. ok is false where there is no verdict:
// not measured, too few runs, or disturbed.
func (e Experiment) Agrees() (agrees, ok bool) {
	m, has := e.Throughput()
	if !has || m.TooFew || e.Disturbed > 0 {
		return false, false
	}
	_, lo, hi, _ := e.Gain()
	switch {
	case e.Model.Gain > limits.MinGain && m.Change > 0:
		return true, true
	case !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
		return e.Model.Gain >= lo && e.Model.Gain <= hi, true
	}
	return (e.Model.Gain > limits.MinGain) == (m.Change > 0), true
}

// Reliefs is what was measured beside what the model predicted.
func (s *Check) Reliefs() causal.Reliefs {
	out := causal.Reliefs{System: s.System, Sched: s.Sched, Model: s.Now, Calibration: s.Calibration,
		Predicted: s.Predicted, Unit: s.Unit, Runs: len(s.BasePoints), Disturbed: disturbed(s.BasePoints)}
	for _, e := range s.Experiments {
		r := causal.Relief{Change: e.Model, ModelGain: e.Model.Gain, Skip: e.Skip,
			Runs: len(e.Points), Disturbed: e.Disturbed, OwnDisturbed: disturbed(e.Points)}
		if m, ok := e.Throughput(); ok {
			r.Compared, r.Old, r.New, r.P, r.DeltaPct, r.Metric, r.Better = true, m.Old, m.New, m.P, m.DeltaPct, m, m.Change > 0
			r.Gain, r.Lo, r.Hi, _ = e.Gain()
		}
		r.Agree, r.Judged = e.Agrees()
		out.Reliefs = append(out.Reliefs, r)
	}
	return out
}

// WriteJSON writes the study as one indented JSON object.
func (s *Check) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
