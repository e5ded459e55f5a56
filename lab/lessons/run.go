package lessons

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/internal/base/race"
	brewhost "github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/lesson"
	"github.com/brewput/brewput/results/stats"
)

// Options configure Run.
type Options struct {
	Level   Level
	Samples int                                                                // quiet samples a measured claim takes, if positive, in place of the level's
	Budget  time.Duration                                                      // the run's time, if positive, in place of the level's
	Shop    func(ctx context.Context, s shopsweep.Spec) (results.Point, error) // a shop's point; nil: shopsweep.Measure, in this process
	// QuietWait, when positive, is the most a claim waits in all, after a
	// sample discarded, for other processes to leave its CPUs free; the
	// run's time grows by what is waited.
	QuietWait time.Duration

	// The tests' stand-ins for package quiet's meter, the machine's CPUs
	// (0 is runtime.NumCPU) and quiet.Wait.
	others    func() func() float64
	cores     int
	waitQuiet func(ctx context.Context, wait time.Duration, below float64) (others float64, waited time.Duration, err error)
}

// limit is the most CPUs other processes may take while a sample of c is
// measured: what c's CPUs leave free, and results.DisturbedCPUs, as the
// labs judge a point.
func (o Options) limit(c Claim) float64 {
	cores := cmp.Or(o.cores, runtime.NumCPU())
	return float64(max(cores-c.needs(), 0)) + results.DisturbedCPUs
}

func (o Options) wait(ctx context.Context, wait time.Duration, below float64) (float64, time.Duration, error) {
	if o.waitQuiet != nil {
		return o.waitQuiet(ctx, wait, below)
	}
	return quiet.Wait(ctx, wait, 200*time.Millisecond, below)
}

func (o Options) othersMeter() func() float64 {
	if o.others != nil {
		return o.others()
	}
	before := quiet.Take()
	return func() float64 { return quiet.Since(before) }
}

// samples is how many quiet samples a claim takes at first, and the most
// it takes while inconclusive.
func (o Options) samples() (first, most int) {
	if o.Samples > 0 {
		return o.Samples, o.Samples
	}
	return pick(o.Level, 2, 6, 10), pick(o.Level, 2, 10, 20)
}

func (o Options) budget() time.Duration {
	if o.Budget > 0 {
		return o.Budget
	}
	return pick(o.Level, time.Minute, 55*time.Second, 9*time.Minute+30*time.Second)
}

// giveUpAfter is how many samples in a row, all discarded, end a claim's
// first pass (without --quiet-wait): it hands its share on to claims
// the neighbours leave free, and tries again in the second pass.
const giveUpAfter = 3

// leastChance is the least weight, as a share of its own, a claim has in
// the second pass: one that kept no sample may find the machine quieter.
const leastChance = 0.1

// Run measures and decides each claim in turn, emitting each result as it
// is reached, and returns them all in order. Claims share the budget by
// cost; one that fails to measure is inconclusive with its Error (named in
// Run's error). Claims kept from a verdict by other processes or time take
// more samples in a second pass. Cancelled, Run returns at once, with
// ctx's error, the claims as they stood. An error of emit stops Run.
func Run(ctx context.Context, claims []Claim, opt Options, emit func(lesson.Result) error) ([]lesson.Result, error) {
	if opt.Shop == nil {
		opt.Shop = shopsweep.Measure
	}
	if emit == nil {
		emit = func(lesson.Result) error { return nil }
	}
	// Measurements stop at the deadline, which a wait for quiet moves on;
	// only a cancelled parent is an interruption.
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deadline := time.Now().Add(opt.budget())
	timer := time.AfterFunc(opt.budget(), cancel)
	defer timer.Stop()
	extend := func(d time.Duration) { // time spent waiting for quiet is not the measurements'
		deadline = deadline.Add(d)
		timer.Reset(time.Until(deadline))
	}
	host := brewhost.Detect()
	done := make([]*lesson.Result, len(claims))
	states := make([]*claimState, len(claims))
	all := make([]int, len(claims))
	for i, c := range claims {
		all[i] = i
		states[i] = &claimState{c: c, opt: opt, r: lesson.Result{Claim: c.Name, Seed: c.Seed, Text: c.Text, SeedFigure: c.SeedFigure,
			Correction: c.Correction, Measures: c.Measures, Unit: c.Unit, Rule: c.Rule, CPUs: c.CPUs, Model: c.Model, Sched: c.Sched}}
	}
	finish := func(is ...int) error {
		for _, i := range is {
			r := states[i].result()
			r.Level, r.Host = opt.Level.String(), host
			done[i] = &r
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
	// pass measures the claims which, sharing the time left by weight; the
	// first leaves pending those more samples could decide.
	pass := func(which []int, first bool) (pending []int, err error) {
		var costs float64
		for _, i := range which {
			costs += states[i].weight()
		}
		for k, i := range which {
			if first {
				states[i].r.Start = time.Now().UTC().Round(time.Millisecond)
			}
			if first || mctx.Err() == nil {
				w := states[i].weight()
				share := time.Duration(float64(time.Until(deadline)) * w / costs)
				costs -= w
				states[i].measure(mctx, time.Now().Add(share), extend, first)
			}
			if ctx.Err() != nil {
				if !first {
					pending = which[k:]
				}
				return nil, cmp.Or(finish(pending...), ctx.Err()) // as they stood
			}
			if first && states[i].unfinished() {
				pending = append(pending, i)
			} else if err := finish(i); err != nil {
				return nil, err
			}
		}
		return pending, nil
	}
	pending, err := pass(all, true)
	if err == nil {
		_, err = pass(pending, false)
	}
	var out []lesson.Result
	var failed []string
	for _, r := range done {
		if r != nil {
			out = append(out, *r)
			if r.Error != "" {
				failed = append(failed, r.Claim)
			}
		}
	}
	if err == nil && len(failed) > 0 {
		err = fmt.Errorf("%d of %d claims failed to measure: %s", len(failed), len(claims), strings.Join(failed, ", "))
	}
	return out, err
}

// weight is a claim's share of the time: its quick sample's cost (a
// little for the model's), by its chance.
func (st *claimState) weight() float64 {
	if st.c.Model {
		return 0.01
	}
	return max(st.c.cost, 0.05) * st.chance()
}

// claimState is a claim being measured: its samples so far.
type claimState struct {
	c   Claim
	opt Options
	r   lesson.Result // the claim's texts, and what is known so far

	values   []float64
	attempts int // samples taken, kept or not, in all passes
	// CPU-seconds other processes took, and seconds, over the samples
	// kept and over all of them.
	keptOthers, keptWall, allOthers, allWall float64
	outOfTime                                bool
	waited                                   time.Duration // for quiet, in all passes
	done                                     bool          // nothing more to measure: a model claim, one the machine cannot measure, a failure
	elapsed                                  time.Duration
}

// chance is the share of the claim's samples kept so far, at least
// leastChance: how much of its time is likely to give it samples.
func (st *claimState) chance() float64 {
	if st.attempts == 0 {
		return 1
	}
	return max(float64(len(st.values))/float64(st.attempts), leastChance)
}

// unfinished reports whether more samples could still give the claim a
// verdict: short of an interval, disturbed or out of time (not tiny).
func (st *claimState) unfinished() bool {
	first, _ := st.opt.samples()
	return !st.done && st.opt.Level != Tiny && len(st.values) < min(first, stats.RunsForInterval()) && (st.r.Discarded+st.r.Empty > 0 || st.outOfTime)
}

// measure takes the claim's samples until it has enough, its time is up
// (until), or too many have been discarded: in the first pass, without a
// wait for quiet, giveUpAfter in a row with none kept.
func (st *claimState) measure(ctx context.Context, until time.Time, extend func(time.Duration), first bool) {
	t0 := time.Now()
	defer func() { st.elapsed += time.Since(t0) }()
	c, r := st.c, &st.r
	env := Env{Level: st.opt.Level, Shop: st.opt.Shop}
	switch {
	case st.done:
		return
	case c.Model:
		st.done = true
		v, err := c.sample(ctx, env)
		if err != nil {
			st.fail(err)
			return
		}
		r.Figure = exact(v)
		r.Verdict = c.Rule.Decide(v, v)
		r.Why.Kind = lesson.WhyModel
		return
	case c.Races && race.Enabled:
		st.done = true
		r.Why.Kind = lesson.WhyRace
		return
	case c.needs() > runtime.NumCPU():
		st.done = true
		r.Why = lesson.Why{Kind: lesson.WhyCPUs, Need: c.needs(), Have: runtime.NumCPU()}
		return
	}

	want, most := st.opt.samples()
	// The most samples a pass may take: twice as many more as wanted for
	// the disturbed (one more at the tiny level).
	maxAttempts := pick(st.opt.Level, most+1, 3*most, 3*most)
	limit := st.opt.limit(c)
	r.BusyLimit = limit
	st.outOfTime = false
	inRow := 0 // discarded
	for attempts := 0; len(st.values) < most && attempts < maxAttempts; attempts++ {
		if f := summarize(st.values); len(st.values) >= want && c.Rule.Decide(f.Lo, f.Hi) != lesson.Inconclusive {
			break // decided: more samples are only for the inconclusive
		}
		if first && st.opt.QuietWait == 0 && len(st.values) == 0 && inRow >= giveUpAfter {
			break // left for the second pass
		}
		if time.Now().After(until) || ctx.Err() != nil {
			st.outOfTime = true
			break
		}
		env.Index = st.attempts
		st.attempts++
		meter := st.opt.othersMeter()
		t := time.Now()
		v, err := c.sample(ctx, env)
		wall := time.Since(t).Seconds()
		others := meter()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				st.outOfTime = true // the run's deadline; an interruption is the caller's to see
				break
			}
			if !errors.Is(err, errEmpty) {
				st.fail(err)
				return
			}
			r.Empty++
			continue
		}
		st.allOthers += others * wall
		st.allWall += wall
		if others > limit {
			r.Discarded++
			inRow++
			if left := st.opt.QuietWait - st.waited; left > 0 {
				_, waited, err := st.opt.wait(ctx, left, limit)
				st.waited += waited
				until = until.Add(waited)
				extend(waited)
				if err != nil {
					st.outOfTime = true
					break
				}
			}
			continue
		}
		inRow = 0
		st.keptOthers += others * wall
		st.keptWall += wall
		st.values = append(st.values, v)
	}
}

func (st *claimState) fail(err error) {
	st.done = true
	st.r.Error = err.Error()
	st.r.Why.Kind = lesson.WhyFailed
}

func (st *claimState) result() lesson.Result {
	r := st.r
	r.ElapsedS = st.elapsed.Seconds()
	if st.c.Model && r.Error == "" {
		return r
	}
	r.Figure = summarize(st.values)
	if st.keptWall > 0 {
		r.Others = st.keptOthers / st.keptWall
	}
	if st.allWall > 0 {
		r.OthersAll = st.allOthers / st.allWall
	}
	if st.done { // not measured, or failed: the reason is said
		r.Verdict = lesson.Inconclusive
		return r
	}
	first, _ := st.opt.samples()
	decide(&r, len(st.values) < first, st.outOfTime)
	return r
}

// decide sets r's verdict, the reason for it and MoreRuns from its
// figure; short if the claim stopped before the samples it meant to take.
func decide(r *lesson.Result, short, outOfTime bool) {
	f, n := r.Figure, stats.RunsForInterval()
	r.Why.Need = n
	if f.N < n {
		r.Verdict = lesson.Inconclusive
		r.MoreRuns = n - f.N
		switch {
		case short && r.Discarded+r.Empty > 0:
			r.Disturbed = true
			r.Why.Kind = lesson.WhyDisturbed
		case short && outOfTime:
			r.Why.Kind = lesson.WhyOutOfTime
		default:
			r.Why.Kind = lesson.WhyTooFew
		}
		return
	}
	r.Verdict = r.Rule.Decide(f.Lo, f.Hi)
	if r.Verdict != lesson.Inconclusive {
		r.Why.Kind = lesson.WhyInterval
		return
	}
	r.MoreRuns = r.Rule.MoreRuns(f, n)
	r.Why.Kind = lesson.WhyStraddles
	if r.MoreRuns < 0 {
		r.Why.Kind = lesson.WhyOnThreshold
	}
}

// summarize is the figure of samples, with compare's benchmath interval.
func summarize(values []float64) lesson.Figure {
	if len(values) == 0 {
		return lesson.Figure{Median: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	s := stats.Values(values)
	return lesson.Figure{Median: s.Median, Lo: s.Lo, Hi: s.Hi, N: len(values), Values: values}
}

// exact is the figure of a deterministic value: the model's.
func exact(v float64) lesson.Figure {
	return lesson.Figure{Median: v, Lo: v, Hi: v, N: 1, Values: []float64{v}}
}
