package studyjob

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/internal/base/format"
	kit "github.com/brewput/brewput/measure/study"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/causal"
	"github.com/brewput/brewput/results/stats"
)

// Experiment is how a why experiment goes, a study's or a benchmark's:
// each part stretched in its turn by Frac of an operation, and the
// control, for Count rounds, or up to MaxCount while undecided; no round
// starts that would not end Within (0: no limit) of Since (zero: the
// first run).
type Experiment struct {
	Frac            float64
	Count, MaxCount int
	Retry           sweep.Retry
	Within          time.Duration
	Since           time.Time
}

// Why is a why experiment on Variant under Load.
type Why struct {
	Variant string
	Load    sweep.Load
	Experiment
}

// NoParts says a variant used no metered lock or channel while measured:
// nothing to stretch, and no metered part limits it.
type NoParts struct{ Point results.Point }

func (e *NoParts) Error() string {
	return fmt.Sprintf("%s used no metered lock or channel while measured (%s on %s): no metered part limits it",
		e.Point.Mode, format.Rate(e.Point.Throughput, e.Point.Unit), format.Count(e.Point.CPUs, "CPU"))
}

// Why runs w: a first run as it is, which plans the stretches, then
// rounds (Rounds). It returns what it measured, also when it stops early.
func (p *Program) Why(ctx context.Context, w Why, log io.Writer) (*why.Stretches, error) {
	run := func(what string, st *kit.Stretch) (results.Point, error) {
		r := request{Variant: w.Variant, Load: w.Load, Stretch: st}
		return w.Measure(ctx, log, what, func(ctx context.Context) (results.Point, error) { return p.runner().Run(ctx, r) })
	}
	start := w.Begin(log, w.Variant+" on "+format.Count(w.Load.CPUs, "CPU"), text.WhyRunLength(w.Load.Warmup+w.Load.Dur))
	began := time.Now()
	first, err := run("as it is", &kit.Stretch{})
	if err != nil {
		return nil, err
	}
	perRun := time.Since(began)
	s := why.PlanStretches(p.Name, w.Frac, first)
	if len(s.Experiments) == 0 {
		return nil, &NoParts{Point: first}
	}
	s.Base = append(s.Base, first)
	s.HoldsTimeStretch = true // a meter's Unlock spins before its clock read
	// A study's meters stretch by whole nanoseconds.
	whole := func(n why.Nanos) why.Nanos { return why.Nanos(math.Round(float64(n))) }
	s.Control.Extra = whole(s.Control.Extra)
	control := &kit.Stretch{Outside: true, Extra: time.Duration(s.Control.Extra)}
	specs := make([]*kit.Stretch, len(s.Experiments))
	for i := range s.Experiments {
		e := &s.Experiments[i]
		e.Extra = whole(e.Extra)
		specs[i] = &kit.Stretch{Group: e.Group, Extra: time.Duration(e.Extra)}
	}
	err = w.Rounds(s, start, perRun, log, func(i int) (results.Point, error) {
		switch i {
		case AsItIs:
			return run("as it is", &kit.Stretch{})
		case TheControl:
			return run(text.WhyControl(s.Control.Extra), control)
		}
		return run(s.Experiments[i].Name, specs[i])
	})
	return s, err
}

// Begin says how a why experiment of what goes ("why WHAT: 6 rounds or
// more, up to 20, within 3m0s…TAIL"), opens its first round and returns
// when its time counts from; a disturbed run is measured again only in time.
func (x *Experiment) Begin(log io.Writer, what, tail string) time.Time {
	var built time.Duration
	if !x.Since.IsZero() {
		built = time.Since(x.Since)
	}
	format.Lines(log, "")(text.WhyBegins(what, x.Count, x.MaxCount, x.Within, built, tail))
	fmt.Fprintln(log, "round 1")
	start := time.Now()
	if !x.Since.IsZero() {
		start = x.Since
	}
	if x.Within > 0 {
		x.Retry.Until = start.Add(x.Within)
	}
	return start
}

// Measure measures a run of the experiment, what, again while disturbed
// as x.Retry says, and tells it on log.
func (x Experiment) Measure(ctx context.Context, log io.Writer, what string, run func(context.Context) (results.Point, error)) (results.Point, error) {
	start := time.Now()
	pt, err := sweep.Quietly(ctx, x.Retry, run, func(pt results.Point, attempt int, waited time.Duration, _ bool) {
		format.Lines(log, "  ")(text.MeasuredAgain(what, pt, waited, attempt+1, x.Retry.Attempts))
	})
	switch {
	case ctx.Err() != nil:
		return pt, ctx.Err()
	case err == nil:
		format.Lines(log, "  ")(fmt.Sprintf("%s: %s (%.1f s)", what, format.Rate(pt.Throughput, pt.Unit), time.Since(start).Seconds()))
	}
	return pt, err
}

// What Rounds' run is asked for, beside an experiment's index.
const (
	AsItIs     = -1
	TheControl = -2
)

// willNotDecide says, before round r, whether the rounds still to come
// cannot decide anything: a part is decided on RunsForInterval
// undisturbed rounds, and those run so far that were, with every round
// that would still end within x.Within and x.MaxCount, are fewer. Only
// where a run was disturbed, and disturbed runs are measured again
// (which --noisy ok does not ask for): a quiet machine runs the rounds
// it was given. It records why in s.Stop.
func (x Experiment) willNotDecide(s *why.Stretches, r int, start time.Time, perRun, round time.Duration) bool {
	quiet := why.UndisturbedRounds(s)
	disturbed := r == 1 && s.Base[0].IsDisturbed() || r > 1 && quiet < r-1
	if x.Retry.Attempts <= 1 || !disturbed || round <= 0 {
		return false
	}
	left := x.MaxCount - (r - 1)
	if x.Within > 0 {
		spent := time.Since(start)
		if r == 1 {
			spent -= perRun // the first round's run as it is is done
		}
		left = min(left, int((x.Within-spent)/round))
	}
	need := stats.RunsForInterval()
	if quiet+max(left, 0) >= need {
		return false
	}
	s.Stop = &causal.Stop{Rounds: r - 1, Quiet: quiet, Left: max(left, 0), Need: need, RoundS: round.Seconds(), WithinS: x.Within.Seconds()}
	return true
}

// Rounds runs the experiments of s, planned from its first run (s.Base[0],
// which took perRun), in rounds of a run as it is (from the second), the
// control and every experiment, until every experiment is decided after
// Count, or MaxCount, or time is out (*why.OutOfTime). run measures
// experiment i, AsItIs or TheControl. A round cut short is dropped whole.
func (x Experiment) Rounds(s *why.Stretches, start time.Time, perRun time.Duration, log io.Writer, run func(i int) (results.Point, error)) error {
	round := perRun * time.Duration(len(s.Experiments)+2)
	format.Lines(log, "")(text.WhyRounds(len(s.Experiments), s.Extra, s.Frac, round, x.Count, x.MaxCount, x.Within))
	take := func(r, i int, into *[]results.Point) error {
		pt, err := run(i)
		if err != nil {
			s.Base = s.Base[:min(len(s.Base), r-1)]
			s.Control.Points = s.Control.Points[:min(len(s.Control.Points), r-1)]
			for j := range s.Experiments {
				s.Experiments[j].Points = s.Experiments[j].Points[:min(len(s.Experiments[j].Points), r-1)]
			}
			return err
		}
		*into = append(*into, pt)
		return nil
	}
	for r := 1; r <= x.MaxCount; r++ {
		began := time.Now()
		if x.willNotDecide(s, r, start, perRun, round) {
			why.Judge(s)
			return nil // the answer says why it stopped
		}
		if r == 1 && x.Within > 0 && time.Since(start)+round-perRun > x.Within {
			return &why.OutOfTime{Within: x.Within, Rounds: 0}
		}
		if r > 1 {
			if x.Within > 0 && time.Since(start)+round > x.Within {
				why.Judge(s)
				return &why.OutOfTime{Within: x.Within, Rounds: r - 1}
			}
			fmt.Fprintf(log, "round %d\n", r)
			if err := take(r, AsItIs, &s.Base); err != nil {
				return err
			}
		}
		if err := take(r, TheControl, &s.Control.Points); err != nil {
			return err
		}
		for i := range s.Experiments {
			if err := take(r, i, &s.Experiments[i].Points); err != nil {
				return err
			}
		}
		took := time.Since(began)
		if r == 1 {
			took += perRun
		}
		round = max(round, took)
		if r >= x.Count {
			why.Judge(s)
			if s.Decided() {
				break
			}
		}
	}
	return nil
}
