// Package lessons measures the claims of the seeds (the talks and articles
// brewput was built from) on this machine and gives each a statistical
// verdict: reproduced, not reproduced, or inconclusive, as docs/lessons.md
// tells. A Claim says where it comes from, its threshold (a Rule), and how
// to take one sample: of the coffee shop, a lab's Run, or the model where
// it needs more CPUs than the machine has.
package lessons

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/lesson"
)

// Claim is one claim of a seed, and how to measure it here.
type Claim struct {
	// Name is "<seed>/<claim>", such as "talk/ideal-scales"; the part
	// before the slash is its group, the seed's short name.
	Name string
	Seed string // the seed file, as in /work/shared/seeds
	Text string // the claim in one line
	// SeedFigure is the seed's own figure and setting: its words between
	// “ and ” (pieces apart joined by …), found as they stand in the seed
	// (or in QuoteFrom), then brewput's reading of them in brackets.
	SeedFigure string
	// QuoteFrom is the file under shared/ the quotes come from where it is
	// not the seed (the talk's reference data); "" for the seed.
	QuoteFrom string
	// Correction says, apart from the quote, where brewput finds the
	// seed, or its own earlier reading of it, wrong; "" where it does not.
	Correction string
	Measures   string // what brewput's figure is, in one line
	Unit       string // Ratio, Share, Ms or Lattes
	Rule       lesson.Rule
	CPUs       []int  // measured (virtual for the model); a measured claim needs the most of them
	Model      bool   // predicted by the model under the Sched policy: it needs more CPUs than a machine has
	Sched      string // the model's policy
	Races      bool   // on the shop's ideal mode, racy by design: not under the race detector

	cost   float64 // about how many seconds a quick sample takes, to share the time
	sample sampler
}

// sampler takes one sample of a claim.
type sampler = func(ctx context.Context, e Env) (float64, error)

// group is the claim's group: "talk" for "talk/ideal-scales".
func (c Claim) group() string {
	g, _, _ := strings.Cut(c.Name, "/")
	return g
}

// needs is the most CPUs a measured claim uses; 0 for the model.
func (c Claim) needs() int {
	if c.Model || len(c.CPUs) == 0 {
		return 0
	}
	return slices.Max(c.CPUs)
}

// Level is how much a run measures.
type Level int

const (
	Full  Level = iota // larger configurations, 10 samples a claim (20 while inconclusive): at most 10 minutes
	Quick              // a verdict for every claim in about a minute on 2 cores, from 6 samples of small configurations (up to 10 while inconclusive)
	Tiny               // the smallest configurations, to check that every claim measures and decides (the tests)
)

// String names the level: "full", "quick" or "tiny".
func (l Level) String() string { return pick(l, "tiny", "quick", "full") }

// Env is what a claim's sample is measured with.
type Env struct {
	Level Level
	Shop  func(ctx context.Context, s shopsweep.Spec) (results.Point, error) // a shop's point: shopsweep.Measure, or a child process's
	// Index counts the claim's samples from 0: a sample of two
	// measurements swaps their order on odd ones, so that a drift of the
	// machine hits both alike.
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

// pair runs a and b, b first on odd samples.
func pair[T any](e Env, a, b func() (T, error)) (ta, tb T, err error) {
	if e.Index%2 == 1 {
		tb, ta, err = pair(Env{}, b, a)
		return ta, tb, err
	}
	if ta, err = a(); err == nil {
		tb, err = b()
	}
	return ta, tb, err
}

// inTurn is the list a, b, reversed on odd samples: a lab sweeps it one
// way, then the other.
func inTurn(e Env, a, b int) []int {
	l := []int{a, b}
	if e.Index%2 == 1 {
		slices.Reverse(l)
	}
	return l
}

// errEmpty marks a sample that measured nothing (no operation in its
// window, on a busy machine): not a failure; the sample is left out.
var errEmpty = errors.New("nothing measured")

func ratio(a, b float64, what string) (float64, error) {
	if !(b > 0) {
		return 0, fmt.Errorf("%s: %w (%g to divide by)", what, errEmpty, b)
	}
	return a / b, nil
}

// Claims lists every claim, seed by seed, for a machine of cpus CPUs: the
// CPU counts of claims that scale with the machine come from it.
func Claims(cpus int) []Claim {
	return slices.Concat(talkClaims(cpus), workloadsClaims(cpus), channelsClaims(cpus), profilingClaims(cpus), journalClaims(cpus))
}

// Select returns the claims named in only (a claim's "talk/ideal-scales"
// or a group's "talk"; none: all), in the order of claims.
func Select(claims []Claim, only []string) ([]Claim, error) {
	if len(only) == 0 {
		return claims, nil
	}
	want := map[string]bool{}
	for _, name := range only {
		name = strings.TrimSpace(name)
		if !slices.ContainsFunc(claims, func(c Claim) bool { return c.Name == name || c.group() == name }) {
			return nil, fmt.Errorf("no claim or group %q; known: %s", name, Names(claims))
		}
		want[name] = true
	}
	return slices.DeleteFunc(slices.Clone(claims), func(c Claim) bool { return !want[c.Name] && !want[c.group()] }), nil
}

// Names lists the groups and then the claims, for messages: "groups talk,
// workloads, …; claims talk/ideal-scales, …".
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

// top is the most CPUs, up to most, a claim scaling with the machine uses
// on cpus: at least 2, so that a 1-CPU machine is told it is too small.
func top(cpus, most int) int { return max(2, min(cpus, most)) }

func fromSeed(seed string, claims []Claim) []Claim {
	for i := range claims {
		claims[i].Seed = seed
	}
	return claims
}
