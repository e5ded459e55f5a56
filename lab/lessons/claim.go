package lessons

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/internal/sweep"
	"github.com/brewput/brewput/results"
)

// Claim is one claim of a seed, and how to measure it here.
type Claim struct {
	// Name names the claim, "<seed>/<claim>", such as "talk/ideal-scales";
	// the part before the slash is its group, the seed's short name.
	Name string
	// Seed is the seed file the claim comes from, as named in
	// /work/shared/seeds, such as "coffee-shop-simulation-talk.txt".
	Seed string
	// Text is the claim in one line.
	Text string
	// SeedFigure is the seed's own figure for it, in its terms.
	SeedFigure string
	// Measures says in one line what brewput's figure is.
	Measures string
	// Unit is the figure's unit: Ratio, Share, Ms or Lattes.
	Unit string
	// Rule is the claim's threshold: the figures that bear it out.
	Rule lesson.Rule
	// CPUs are the CPU counts the figure is measured on (virtual CPUs
	// for the model). A measured claim needs a machine with at least
	// the largest of them.
	CPUs []int
	// Model marks a claim whose figure comes from the model (Sched
	// policy), deterministically, because it needs more CPUs than the
	// machine has.
	Model bool
	Sched string
	// Races marks a claim measured with the shop's ideal mode, which has
	// a data race by design: under the race detector it cannot run.
	Races bool

	// cost is about how many seconds a sample takes in a quick run, for
	// sharing the run's time among claims in proportion.
	cost float64
	// sample takes one sample of the figure.
	sample func(ctx context.Context, e Env) (float64, error)
}

// group is the claim's group, the seed's short name: "talk" for
// "talk/ideal-scales".
func (c Claim) group() string {
	g, _, _ := strings.Cut(c.Name, "/")
	return g
}

// needs is the most CPUs a measured claim uses, which the machine must
// have; 0 for the model.
func (c Claim) needs() int {
	if c.Model || len(c.CPUs) == 0 {
		return 0
	}
	return slices.Max(c.CPUs)
}

// Level is how much a run measures.
type Level int

// The levels.
const (
	// Full measures with larger configurations, 10 samples a claim,
	// taking up to 20 while a claim is inconclusive: at most 10 minutes.
	Full Level = iota
	// Quick gives every claim a verdict in about a minute on 2 cores,
	// from 6 samples each of small configurations.
	Quick
	// Tiny measures the smallest configurations, for checking that every
	// claim measures and decides (the tests): its figures say little, and
	// a disturbed claim gets no second pass.
	Tiny
)

// String names the level: "full", "quick" or "tiny".
func (l Level) String() string {
	switch l {
	case Quick:
		return "quick"
	case Tiny:
		return "tiny"
	}
	return "full"
}

// Env is what a claim's sample is measured with.
type Env struct {
	// Level sets the size of the configurations.
	Level Level
	// Shop measures one point of the coffee shop: sweep.Measure in this
	// process, or a sweep.Runner's Run, pinned to the point's CPUs in a
	// child process, as the command line does.
	Shop func(ctx context.Context, s sweep.Spec) (results.Point, error)
	// Dir is where the logs lab puts its files; empty means the system's
	// temporary folder.
	Dir string
	// Index counts the claim's samples from 0; a sample of two
	// measurements takes them in turn, the first one first on even
	// samples, so that a drift of the machine hits both alike.
	Index int
}

// pick returns what the level asks for.
func pick[T any](l Level, tiny, quick, full T) T {
	switch l {
	case Tiny:
		return tiny
	case Quick:
		return quick
	}
	return full
}

// pair runs a and b, in the order Index says, and returns their results
// as a's, b's.
func pair[T any](e Env, a, b func() (T, error)) (ta, tb T, err error) {
	if e.Index%2 == 1 {
		if tb, err = b(); err != nil {
			return ta, tb, err
		}
		ta, err = a()
		return ta, tb, err
	}
	if ta, err = a(); err != nil {
		return ta, tb, err
	}
	tb, err = b()
	return ta, tb, err
}

// pointOf finds the point of variant (a lab's) at cpus CPUs among points.
func pointOf(points []results.Point, variant string, cpus int) (results.Point, error) {
	for _, p := range points {
		if p.Variant == variant && p.CPUs == cpus {
			return p, nil
		}
	}
	return results.Point{}, fmt.Errorf("no point of %s on %d CPUs among the %d measured", variant, cpus, len(points))
}

// metric is p's metric name, or an error naming what is missing.
func metric(p results.Point, name string) (float64, error) {
	v, ok := p.Metrics[results.Metric(name)]
	if !ok {
		return 0, fmt.Errorf("%s %s on %d CPUs has no metric %q", p.Lab.Name, p.Variant, p.CPUs, name)
	}
	return v, nil
}

// errEmpty marks a sample that measured nothing to make a figure of: a
// point with no operation in its window, which a machine busy enough can
// leave. It is not a failure; the sample is left out.
var errEmpty = errors.New("nothing measured")

// ratio is a ÷ b, errEmpty where b is not positive.
func ratio(a, b float64, what string) (float64, error) {
	if !(b > 0) {
		return 0, fmt.Errorf("%s: %w (%g to divide by)", what, errEmpty, b)
	}
	return a / b, nil
}

// Claims lists every claim, seed by seed, for a machine of cpus CPUs: the
// CPU counts of claims that scale with the machine (the talk's shop, up
// to its 6 CPUs) are taken from it.
func Claims(cpus int) []Claim {
	var all []Claim
	for _, seed := range [][]Claim{talkClaims(cpus), workloadsClaims(cpus), channelsClaims(cpus), profilingClaims(cpus), journalClaims(cpus)} {
		all = append(all, seed...)
	}
	return all
}

// Select returns the claims named in only, in the order of claims; a name
// is a claim's ("talk/ideal-scales") or a group's ("talk"). No names
// select every claim. An unknown name is an error that lists the known
// ones.
func Select(claims []Claim, only []string) ([]Claim, error) {
	if len(only) == 0 {
		return claims, nil
	}
	want := map[string]bool{}
	for _, name := range only {
		name = strings.TrimSpace(name)
		known := slices.ContainsFunc(claims, func(c Claim) bool { return c.Name == name || c.group() == name })
		if !known {
			return nil, fmt.Errorf("no claim or group %q; known: %s", name, Names(claims))
		}
		want[name] = true
	}
	var out []Claim
	for _, c := range claims {
		if want[c.Name] || want[c.group()] {
			out = append(out, c)
		}
	}
	return out, nil
}

// Names lists the groups and then the claims' names, for messages:
// "groups talk, workloads, …; claims talk/ideal-scales, …".
func Names(claims []Claim) string {
	var groups, names []string
	for _, c := range claims {
		if !slices.Contains(groups, c.group()) {
			groups = append(groups, c.group())
		}
		names = append(names, c.Name)
	}
	return fmt.Sprintf("groups %s; claims %s", strings.Join(groups, ", "), strings.Join(names, ", "))
}

// top is the most CPUs, up to most, that a claim scaling with the machine
// uses on one of cpus: at least 2, so that a machine of 1 CPU is told it
// is too small rather than measuring nothing.
func top(cpus, most int) int { return max(2, min(cpus, most)) }

// fromSeed is claims, each said to come from the seed file seed.
func fromSeed(seed string, claims []Claim) []Claim {
	for i := range claims {
		claims[i].Seed = seed
	}
	return claims
}

// metricRatio is the metric name (the throughput where name is "") of
// variant a on ca CPUs over that of b on cb CPUs.
func metricRatio(points []results.Point, name, a string, ca int, b string, cb int) (float64, error) {
	pa, err := pointOf(points, a, ca)
	if err != nil {
		return 0, err
	}
	pb, err := pointOf(points, b, cb)
	if err != nil {
		return 0, err
	}
	if name == "" {
		return ratio(pa.Throughput, pb.Throughput, b)
	}
	va, err := metric(pa, name)
	if err != nil {
		return 0, err
	}
	vb, err := metric(pb, name)
	if err != nil {
		return 0, err
	}
	return ratio(va, vb, b+" "+name)
}
