package lessons

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/brewput/brewput/compare"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/internal/race"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sweep"
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
// result as soon as it is reached, and returns them all. Claims share
// the budget in proportion to their cost; one that runs out of time, or
// out of quiet samples, decides on what it has, which may be nothing
// (inconclusive). A claim that fails to measure (a lab's wrong answer)
// is inconclusive with its Error, and Run goes on with the next; it
// returns an error naming the failed claims at the end.
//
// When ctx is cancelled, Run stops at once and returns the results
// reached so far with ctx's error; the claim it was measuring is left
// out. An error from emit stops Run and is returned.
func Run(ctx context.Context, claims []Claim, opt Options, emit func(Result) error) ([]Result, error) {
	if opt.Shop == nil {
		opt.Shop = sweep.Measure
	}
	if emit == nil {
		emit = func(Result) error { return nil }
	}
	start := time.Now()
	deadline := start.Add(opt.budget())
	// Measurements stop at the deadline; a cancelled parent is an
	// interruption, the deadline only the end of the time.
	mctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	host := sweep.DetectHost()
	var costs float64
	for _, c := range claims {
		costs += c.weight()
	}
	var out []Result
	var failed []string
	for _, c := range claims {
		share := time.Duration(float64(time.Until(deadline)) * c.weight() / costs)
		costs -= c.weight()
		if opt.Progress != nil {
			opt.Progress(fmt.Sprintf("%s: %s", c.Name, c.Text))
		}
		r := measure(mctx, c, opt, time.Now().Add(share))
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r.Level, r.Host = opt.Level.String(), host
		if r.Error != "" {
			failed = append(failed, c.Name)
		}
		out = append(out, r)
		if err := emit(r); err != nil {
			return out, err
		}
	}
	if len(failed) > 0 {
		return out, fmt.Errorf("%d of %d claims failed to measure: %s", len(failed), len(claims), strings.Join(failed, ", "))
	}
	return out, nil
}

// weight is a claim's share of the time: its quick sample's cost, and a
// little for the model's, which takes no time to speak of.
func (c Claim) weight() float64 {
	if c.Model {
		return 0.01
	}
	return max(c.cost, 0.05)
}

// measure takes c's samples until it has enough, its time is up, or too
// many have been discarded, and decides.
func measure(ctx context.Context, c Claim, opt Options, until time.Time) (r Result) {
	r = Result{Claim: c.Name, Seed: c.Seed, Text: c.Text, SeedFigure: c.SeedFigure, Measures: c.Measures,
		Unit: c.Unit, Rule: c.Rule, CPUs: c.CPUs, Model: c.Model, Sched: c.Sched, Start: time.Now().UTC().Round(time.Millisecond)}
	start := time.Now()
	defer func() { r.ElapsedS = time.Since(start).Seconds() }()
	env := Env{Level: opt.Level, Shop: opt.Shop, Dir: opt.Dir}

	if c.Model {
		v, err := c.sample(ctx, env)
		if err != nil {
			return failedResult(r, err)
		}
		r.Figure = exact(v)
		r.Verdict = c.Rule.Decide(v, v)
		r.Reason = fmt.Sprintf("model (%s policy), exact: %s %s the claim's %s", c.Sched, formatValue(v, c.Unit), side(r.Verdict), r.RuleText())
		return r
	}
	if c.Races && race.Enabled {
		r.Figure = summarize(nil)
		r.Verdict = Inconclusive
		r.Reason = "not measured: this binary has the race detector, which stops the ideal mode, racy by design"
		return r
	}
	if need := c.needs(); need > runtime.NumCPU() {
		r.Figure = summarize(nil)
		r.Verdict = Inconclusive
		r.Reason = fmt.Sprintf("needs %d CPUs; this machine has %d", need, runtime.NumCPU())
		return r
	}

	first, most := opt.samples()
	// Disturbed samples are taken again, up to twice as many more as
	// wanted; the tiny level, which checks wiring, tries once more only.
	maxAttempts := pick(opt.Level, most+1, 3*most, 3*most)
	var values []float64
	var keptOthers, keptWall, allOthers, allWall float64 // CPU-seconds of others, and seconds
	outOfTime := false
	for attempt := 0; len(values) < most && attempt < maxAttempts; attempt++ {
		if f := summarize(values); len(values) >= first && c.Rule.Decide(f.Lo, f.Hi) != Inconclusive {
			break // decided: more samples are only for the inconclusive
		}
		if time.Now().After(until) || ctx.Err() != nil {
			outOfTime = true
			break
		}
		env.Index = attempt
		meter := opt.othersMeter()
		t0 := time.Now()
		v, err := c.sample(ctx, env)
		wall := time.Since(t0).Seconds()
		others := meter()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				outOfTime = true // the run's deadline; an interruption is the caller's to see
				break
			}
			if !errors.Is(err, errEmpty) {
				return failedResult(r, err)
			}
			r.Empty++
			continue
		}
		allOthers += others * wall
		allWall += wall
		if others > BusyLimit {
			r.Discarded++
			continue
		}
		keptOthers += others * wall
		keptWall += wall
		values = append(values, v)
	}
	if keptWall > 0 {
		r.Others = keptOthers / keptWall
	}
	if allWall > 0 {
		r.OthersAll = allOthers / allWall
	}
	r.Figure = summarize(values)
	decide(&r, len(values) < first, outOfTime)
	return r
}

// decide sets r's verdict, reason and MoreRuns from its figure; short
// says the claim stopped before the samples it meant to take, out of time
// when outOfTime.
func decide(r *Result, short, outOfTime bool) {
	f, n := r.Figure, minRuns()
	discarded := ""
	if r.Discarded > 0 {
		discarded = fmt.Sprintf("; %s discarded, taken while other processes took more than %.1f CPUs (%.2f on average over all)",
			plural(r.Discarded, "sample"), BusyLimit, r.OthersAll)
	}
	if r.Empty > 0 {
		discarded += fmt.Sprintf("; %s measured nothing in their window", plural(r.Empty, "sample"))
	}
	if f.N < n {
		r.Verdict = Inconclusive
		r.MoreRuns = n - f.N
		switch {
		case short && r.Discarded+r.Empty > 0:
			r.Disturbed = true
			r.Reason = fmt.Sprintf("disturbed: %d quiet samples of the %d an interval needs%s", f.N, n, discarded)
		case short && outOfTime:
			r.Reason = fmt.Sprintf("out of time after %s; an interval needs %d", plural(f.N, "sample"), n)
		default:
			r.Reason = fmt.Sprintf("%s: too few for an interval, which needs %d%s", plural(f.N, "sample"), n, discarded)
		}
		return
	}
	r.Verdict = r.Rule.Decide(f.Lo, f.Hi)
	if r.Verdict != Inconclusive {
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

// plural is "1 sample", "2 samples".
func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// side says where a decided figure lies against the rule.
func side(v Verdict) string {
	switch v {
	case Reproduced:
		return "meets"
	case NotReproduced:
		return "misses"
	}
	return "straddles"
}

// failedResult is r for a claim whose measurement failed with err.
func failedResult(r Result, err error) Result {
	r.Figure = summarize(nil)
	r.Verdict = Inconclusive
	r.Error = err.Error()
	r.Reason = "failed to measure: " + err.Error()
	return r
}

// Tally counts the verdicts of rs in one line: "31 claims: 12 reproduced,
// 5 not reproduced, 14 inconclusive (9 disturbed)".
func Tally(rs []Result) string {
	var rep, not, inc, dist int
	for _, r := range rs {
		switch r.Verdict {
		case Reproduced:
			rep++
		case NotReproduced:
			not++
		default:
			inc++
			if r.Disturbed {
				dist++
			}
		}
	}
	s := fmt.Sprintf("%d claims: %d reproduced, %d not reproduced, %d inconclusive", len(rs), rep, not, inc)
	if dist > 0 {
		s += fmt.Sprintf(" (%d disturbed)", dist)
	}
	return s
}
