package limits

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/brewput/brewput/internal/parallel"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// MinGain is the least throughput gain that counts: a relief that gains
// 1 % or less does not help, and gains within Tie of each other are equal.
const (
	MinGain = 0.01
	Tie     = 0.01
)

// Profile is a causal profile of one configuration: the point as it is,
// every relief tried, best first, and the verdict they give.
type Profile struct {
	// System names the configuration: "finelocking on 6 CPUs".
	System string
	// Now is the model's point for the configuration as it is.
	Now results.Point
	// Config, for the shop, is the configuration as it is (nil for a
	// YAML system).
	Config *model.Config
	// Trials are the reliefs tried, by throughput gain, best first.
	Trials []Trial
	// Combined is the smallest combination of reliefs found that gains
	// more than MinGain, tried where no single relief does; nil otherwise.
	Combined *Trial
	// Bottleneck is the verdict, with the experiments and the words.
	Bottleneck results.Bottleneck
}

// Trial is one experiment: what changed, what it costs, and the point the
// model gave for it.
type Trial struct {
	results.Experiment
	// As says what the system becomes: "finelocking, 2 grinders".
	As string
	// Config, for the shop, is the configuration the model simulated:
	// what to run on real CPUs to try the same change (nil for a YAML
	// system).
	Config *model.Config
	Cost   Cost
	Point  results.Point
	named  []string
}

// target is a system a profile relieves: a mode of the shop or a YAML
// system, at one configuration.
type target interface {
	system() string
	// run simulates the configuration with k's reliefs.
	run(k knobs) (results.Point, error)
	// reliefs lists the experiments to try.
	reliefs() []relief
	// label names a resource for people: "the grinder", "the CPUs".
	label(resource string) string
	// model says what the profile simulates with: "model (fifo)".
	model() string
	// openLoop reports whether the load is an open loop, its arrivals
	// per second.
	openLoop() float64
	// describe says what the system becomes with k's reliefs:
	// "finelocking, 2 grinders".
	describe(k knobs) string
	// config is the shop's configuration with k's reliefs; false for a
	// system that is not the shop.
	config(k knobs) (model.Config, bool)
}

// profileAll profiles every target, running the simulations as many at
// once as there are CPUs: first each configuration and every single
// relief, then, where no single relief helps, the search for a combined
// one, target by target. A target's error leaves its profile nil.
func profileAll(ts []target) ([]*Profile, []error) {
	type job struct {
		t, r int // target, relief (-1: as it is)
	}
	rs := make([][]relief, len(ts))
	var jobs []job
	for i, t := range ts {
		rs[i] = t.reliefs()
		for j := -1; j < len(rs[i]); j++ {
			jobs = append(jobs, job{i, j})
		}
	}
	points := make([][]results.Point, len(ts))
	errs := make([]error, len(ts))
	for i := range ts {
		points[i] = make([]results.Point, len(rs[i])+1)
	}
	var mu sync.Mutex
	parallel.Do(len(jobs), func(n int) {
		jb := jobs[n]
		k := knobs{}
		if jb.r >= 0 {
			k = rs[jb.t][jb.r].k
		}
		p, err := ts[jb.t].run(k)
		if err != nil {
			mu.Lock()
			if errs[jb.t] == nil {
				what := "as it is"
				if jb.r >= 0 {
					what = rs[jb.t][jb.r].change
				}
				errs[jb.t] = fmt.Errorf("%s, %s: %w", ts[jb.t].system(), what, err)
			}
			mu.Unlock()
			return
		}
		points[jb.t][jb.r+1] = p
	})

	out := make([]*Profile, len(ts))
	parallel.Do(len(ts), func(i int) {
		if errs[i] != nil {
			return
		}
		pr := &Profile{System: ts[i].system(), Now: points[i][0]}
		if c, ok := ts[i].config(knobs{}); ok {
			pr.Config = &c
		}
		for j, r := range rs[i] {
			pr.Trials = append(pr.Trials, trial(ts[i], r, pr.Now, points[i][j+1]))
		}
		// Best first; equal gains keep the order tried.
		slices.SortStableFunc(pr.Trials, func(a, b Trial) int { return cmp.Compare(b.Gain, a.Gain) })
		if len(pr.Trials) == 0 || pr.Trials[0].Gain <= MinGain {
			c, err := combine(ts[i], pr, rs[i])
			if err != nil {
				errs[i] = err
				return
			}
			pr.Combined = c
		}
		pr.Bottleneck = verdict(ts[i], pr)
		out[i] = pr
	})
	return out, errs
}

// trial is relief r's experiment, from the point it gave against now.
func trial(t target, r relief, now, p results.Point) Trial {
	e := results.Experiment{Change: r.change, Kind: r.kind, Resources: r.relieves,
		Throughput: p.Throughput, P50Ms: p.Latency.P50, P99Ms: p.Latency.P99}
	if now.Throughput > 0 {
		e.Gain = p.Throughput/now.Throughput - 1
	}
	if now.Latency.P50 > 0 {
		e.P50Change = p.Latency.P50/now.Latency.P50 - 1
	}
	if now.Latency.P99 > 0 {
		e.P99Change = p.Latency.P99/now.Latency.P99 - 1
	}
	tr := Trial{Experiment: e, As: t.describe(r.k), Cost: r.cost, Point: p, named: r.named}
	if c, ok := t.config(r.k); ok {
		tr.Config = &c
	}
	return tr
}

// combine looks for the smallest combination of reliefs that gains more
// than MinGain, where no single one does: it relieves every resource at
// once (each by its relief of more capacity where it has one), and if
// that helps, drops one resource after another — the load first, then
// the channels, the work only a faster step relieves, the CPUs, then those
// whose own relief gained least — as long as what is
// left still helps. What remains cannot lose any part without falling to
// MinGain or below. nil if even relieving everything does not help.
func combine(t target, pr *Profile, rs []relief) (*Trial, error) {
	byRes := map[string]relief{}
	var order []string
	for _, r := range rs {
		main := r.named[0]
		cur, ok := byRes[main]
		if !ok {
			order = append(order, main)
		}
		if !ok || r.preference() < cur.preference() {
			byRes[main] = r
		}
	}
	if len(order) < 2 {
		return nil, nil
	}
	gainOf := map[string]float64{}
	for _, tr := range pr.Trials {
		for _, n := range tr.named {
			gainOf[n] = max(gainOf[n], tr.Gain)
		}
	}
	rank := func(res string) int {
		switch {
		case res == "customers" || res == "servers":
			return 0
		case strings.HasPrefix(res, "channel:"):
			return 1
		case byRes[res].kind == Shorter: // only a faster step relieves it
			return 2
		case res == "cpus":
			return 3
		}
		return 4
	}
	slices.SortStableFunc(order, func(a, b string) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		return cmp.Compare(gainOf[a], gainOf[b])
	})

	try := func(set []string) (Trial, error) {
		var k knobs
		var parts []relief
		for _, r := range rs { // in the order tried
			if slices.Contains(set, r.named[0]) && byRes[r.named[0]].change == r.change {
				k = k.merge(r.k)
				parts = append(parts, r)
			}
		}
		p, err := t.run(k)
		if err != nil {
			return Trial{}, fmt.Errorf("%s, combined: %w", t.system(), err)
		}
		return trial(t, combined(parts, k), pr.Now, p), nil
	}
	set := slices.Clone(order)
	best, err := try(set)
	if err != nil || best.Gain <= MinGain {
		return nil, err
	}
	for _, res := range order {
		if len(set) == 1 {
			break
		}
		without := slices.DeleteFunc(slices.Clone(set), func(s string) bool { return s == res })
		tr, err := try(without)
		if err != nil {
			return nil, err
		}
		if tr.Gain > MinGain {
			set, best = without, tr
		}
	}
	return &best, nil
}

// combined is the relief of parts at once.
func combined(parts []relief, k knobs) relief {
	c := relief{kind: Combined, k: k}
	var changes []string
	for _, p := range parts {
		changes = append(changes, p.change)
		c.named = appendNew(c.named, p.named...)
		c.relieves = appendNew(c.relieves, p.relieves...)
		c.cost = c.cost.add(p.cost)
	}
	c.change = strings.Join(changes, " + ")
	return c
}

// appendNew appends those of add that s does not hold yet.
func appendNew(s []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(s, a) {
			s = append(s, a)
		}
	}
	return s
}
