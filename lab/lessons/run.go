package lessons

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/internal/format"
	brewhost "github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/internal/race"
	"github.com/brewput/brewput/internal/sweep"
	"github.com/brewput/brewput/results"
)

// BusyLimit is how many CPUs' worth of time other processes (and the
// hypervisor) may take while a sample is measured before the sample is
// discarded: the same limit as the suite's timing tests.
const BusyLimit = 0.3

// Options configure Run.
type Options struct {
	// Level is how much to measure: Full (the zero value), Quick or Tiny.
	Level Level
	// Samples, when positive, is how many quiet samples each measured
	// claim takes, in place of the level's (6 in a quick run; 10 in a
	// full one, and up to 20 while a claim is inconclusive).
	Samples int
	// Budget, when positive, is the time the whole run may take, in place
	// of the level's: 55 s quick, 9½ minutes full, 1 minute tiny. It is
	// shared among the claims in proportion to their cost; a claim out of
	// time decides on the samples it has.
	Budget time.Duration
	// Shop measures a point of the coffee shop; nil means sweep.Measure,
	// in this process. The command line measures each point in a child
	// process pinned to its CPUs (a sweep.Runner).
	Shop func(ctx context.Context, s sweep.Spec) (results.Point, error)
	// Dir is the folder for the logs lab's files; empty means the
	// system's temporary folder.
	Dir string
	// Progress, if not nil, gets a line as each claim starts.
	Progress func(line string)

	// others, when set, stands for package quiet in the tests: called as
	// a sample starts, it returns what tells, as the sample ends, how
	// many CPUs other processes took meanwhile.
	others func() func() float64
}

// othersMeter starts reading how many CPUs other processes take.
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
	return pick(o.Level, 2, 6, 10), pick(o.Level, 2, 6, 20)
}

// budget is the time the run may take.
func (o Options) budget() time.Duration {
	if o.Budget > 0 {
		return o.Budget
	}
	return pick(o.Level, time.Minute, 55*time.Second, 9*time.Minute+30*time.Second)
}

// minRuns is the fewest samples with a bounded confidence interval.
func minRuns() int { return compare.RunsForInterval() }

// Run measures each claim in turn and decides it, calling emit with each
// result as soon as it is reached, and returns them all, in the claims'
// order. Claims share the budget in proportion to their cost; one that
// runs out of time, or out of quiet samples, decides on what it has,
// which may be nothing (inconclusive). A claim that fails to measure (a
// lab's wrong answer) is inconclusive with its Error, and Run goes on with
// the next; it returns an error naming the failed claims at the end.
//
// Claims kept from a verdict by other processes (disturbed) or by their
// share of time are left pending after the first pass, and take more
// samples in a second one while time remains, their shares taken from
// what is left: a neighbour's busy spell then costs a verdict only if it
// lasts the whole run. Their results are emitted after that pass.
//
// When ctx is cancelled, Run stops at once and returns the results
// reached so far with ctx's error: the claims decided, and the pending
// ones as they stood (emitted then); the claim it was measuring in the
// first pass is left out. An error from emit stops Run and is returned.
func Run(ctx context.Context, claims []Claim, opt Options, emit func(lesson.Result) error) ([]lesson.Result, error) {
	if opt.Shop == nil {
		opt.Shop = sweep.Measure
	}
	if emit == nil {
		emit = func(lesson.Result) error { return nil }
	}
	deadline := time.Now().Add(opt.budget())
	// Measurements stop at the deadline; a cancelled parent is an
	// interruption, the deadline only the end of the time.
	mctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	host := brewhost.Detect()
	results := make([]*lesson.Result, len(claims))
	finish := func(i int, st *claimState) error {
		r := st.result()
		r.Level, r.Host = opt.Level.String(), host
		results[i] = &r
		return emit(r)
	}
	ordered := func() []lesson.Result {
		var out []lesson.Result
		for _, r := range results {
			if r != nil {
				out = append(out, *r)
			}
		}
		return out
	}

	var costs float64
	for _, c := range claims {
		costs += c.weight()
	}
	var pending []int
	states := make([]*claimState, len(claims))
	for i, c := range claims {
		share := time.Duration(float64(time.Until(deadline)) * c.weight() / costs)
		costs -= c.weight()
		if opt.Progress != nil {
			opt.Progress(fmt.Sprintf("%s: %s", c.Name, c.Text))
		}
		st := newClaimState(c, opt)
		states[i] = st
		st.measure(mctx, time.Now().Add(share))
		if err := ctx.Err(); err != nil {
			for _, j := range pending { // as they stood
				if err := finish(j, states[j]); err != nil {
					return ordered(), err
				}
			}
			return ordered(), err
		}
		if st.unfinished() {
			pending = append(pending, i)
			continue
		}
		if err := finish(i, st); err != nil {
			return ordered(), err
		}
	}

	// The second pass: what time is left, shared among the pending claims.
	costs = 0
	for _, i := range pending {
		costs += claims[i].weight()
	}
	for k, i := range pending {
		if mctx.Err() == nil {
			share := time.Duration(float64(time.Until(deadline)) * claims[i].weight() / costs)
			costs -= claims[i].weight()
			states[i].measure(mctx, time.Now().Add(share))
		}
		if err := ctx.Err(); err != nil {
			for _, j := range pending[k:] { // as they stood
				if err := finish(j, states[j]); err != nil {
					return ordered(), err
				}
			}
			return ordered(), err
		}
		if err := finish(i, states[i]); err != nil {
			return ordered(), err
		}
	}

	var failed []string
	for _, r := range results {
		if r.Error != "" {
			failed = append(failed, r.Claim)
		}
	}
	if len(failed) > 0 {
		return ordered(), fmt.Errorf("%d of %d claims failed to measure: %s", len(failed), len(claims), strings.Join(failed, ", "))
	}
	return ordered(), nil
}

// weight is a claim's share of the time: its quick sample's cost, and a
// little for the model's, which takes no time to speak of.
func (c Claim) weight() float64 {
	if c.Model {
		return 0.01
	}
	return max(c.cost, 0.05)
}

// claimState is a claim being measured: its samples so far, and how they
// were taken.
type claimState struct {
	c   Claim
	opt Options
	r   lesson.Result // the claim's texts, and what is known so far

	values []float64
	// attempts counts the samples taken, kept or not, in all passes.
	attempts int
	// CPU-seconds other processes took, and seconds, over the samples
	// kept and over all of them.
	keptOthers, keptWall, allOthers, allWall float64
	outOfTime                                bool
	// done is set once nothing more is to be measured: a model claim, a
	// claim the machine cannot measure, a failure.
	done    bool
	elapsed time.Duration
}

func newClaimState(c Claim, opt Options) *claimState {
	return &claimState{c: c, opt: opt, r: lesson.Result{Claim: c.Name, Seed: c.Seed, Text: c.Text, SeedFigure: c.SeedFigure,
		Measures: c.Measures, Unit: c.Unit, Rule: c.Rule, CPUs: c.CPUs, Model: c.Model, Sched: c.Sched,
		Start: time.Now().UTC().Round(time.Millisecond)}}
}

// unfinished reports whether more samples could still give the claim a
// verdict it lacks: it stopped short of an interval because its samples
// were disturbed or its time ran out. The tiny level, which checks wiring,
// has no second pass.
func (st *claimState) unfinished() bool {
	first, _ := st.opt.samples()
	return !st.done && st.opt.Level != Tiny && len(st.values) < min(first, minRuns()) && (st.r.Discarded+st.r.Empty > 0 || st.outOfTime)
}

// maxAttempts is how many samples a claim may take in a pass: disturbed
// ones are taken again, up to twice as many more as wanted; the tiny
// level, which checks wiring, tries once more only.
func (st *claimState) maxAttempts() int {
	_, most := st.opt.samples()
	return pick(st.opt.Level, most+1, 3*most, 3*most)
}

// measure takes the claim's samples until it has enough, its time is up
// (until), or too many have been discarded.
func (st *claimState) measure(ctx context.Context, until time.Time) {
	t0 := time.Now()
	defer func() { st.elapsed += time.Since(t0) }()
	c, r := st.c, &st.r
	env := Env{Level: st.opt.Level, Shop: st.opt.Shop, Dir: st.opt.Dir}
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
		r.Reason = fmt.Sprintf("model (%s policy), exact: %s %s the claim's %s", c.Sched, lesson.FormatValue(v, c.Unit), side(r.Verdict), r.RuleText())
		return
	case c.Races && race.Enabled:
		st.done = true
		r.Reason = "not measured: this binary has the race detector, which stops the ideal mode, racy by design"
		return
	case c.needs() > runtime.NumCPU():
		st.done = true
		r.Reason = fmt.Sprintf("needs %d CPUs; this machine has %d", c.needs(), runtime.NumCPU())
		return
	}

	first, most := st.opt.samples()
	st.outOfTime = false
	for attempts := 0; len(st.values) < most && attempts < st.maxAttempts(); attempts++ {
		if f := summarize(st.values); len(st.values) >= first && c.Rule.Decide(f.Lo, f.Hi) != lesson.Inconclusive {
			break // decided: more samples are only for the inconclusive
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
		if others > BusyLimit {
			r.Discarded++
			continue
		}
		st.keptOthers += others * wall
		st.keptWall += wall
		st.values = append(st.values, v)
	}
}

// fail ends the claim on err, a failure to measure.
func (st *claimState) fail(err error) {
	st.done = true
	st.r.Error = err.Error()
	st.r.Reason = "failed to measure: " + err.Error()
}

// result is the claim's result as it stands.
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

// decide sets r's verdict, reason and MoreRuns from its figure; short
// says the claim stopped before the samples it meant to take, out of time
// when outOfTime.
func decide(r *lesson.Result, short, outOfTime bool) {
	f, n := r.Figure, minRuns()
	discarded := ""
	if r.Discarded > 0 {
		discarded = fmt.Sprintf("; %s discarded, taken while other processes took more than %.1f CPUs (%.2f on average over all)",
			format.Count(r.Discarded, "sample"), BusyLimit, r.OthersAll)
	}
	if r.Empty > 0 {
		discarded += fmt.Sprintf("; %s measured nothing in their window", format.Count(r.Empty, "sample"))
	}
	if f.N < n {
		r.Verdict = lesson.Inconclusive
		r.MoreRuns = n - f.N
		switch {
		case short && r.Discarded+r.Empty > 0:
			r.Disturbed = true
			r.Reason = fmt.Sprintf("disturbed: %d quiet samples of the %d an interval needs%s", f.N, n, discarded)
		case short && outOfTime:
			r.Reason = fmt.Sprintf("out of time after %s; an interval needs %d", format.Count(f.N, "sample"), n)
		default:
			r.Reason = fmt.Sprintf("%s: too few for an interval, which needs %d%s", format.Count(f.N, "sample"), n, discarded)
		}
		return
	}
	r.Verdict = r.Rule.Decide(f.Lo, f.Hi)
	if r.Verdict != lesson.Inconclusive {
		r.Reason = fmt.Sprintf("the whole 95 %% interval %s the claim's %s%s", side(r.Verdict), r.RuleText(), discarded)
		return
	}
	r.MoreRuns = r.Rule.MoreRuns(f, n)
	if r.MoreRuns < 0 {
		r.Reason = fmt.Sprintf("the interval straddles the claim's %s and its median sits on the threshold: more samples are unlikely to tell%s", r.RuleText(), discarded)
		return
	}
	r.Reason = fmt.Sprintf("the interval straddles the claim's %s: about %d more samples would tell%s", r.RuleText(), r.MoreRuns, discarded)
}

// side says where a decided figure lies against the rule.
func side(v lesson.Verdict) string {
	switch v {
	case lesson.Reproduced:
		return "meets"
	case lesson.NotReproduced:
		return "misses"
	}
	return "straddles"
}
