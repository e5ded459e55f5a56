package limits

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

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
	// Bottleneck is the verdict, with the experiments and the words;
	// zero at depth PointsOnly, where nothing was tried.
	Bottleneck results.Bottleneck
}

// Depth is how far a simulation goes at each point.
type Depth int

const (
	// Profiled gives each point its causal profile: every relief tried
	// and the verdict they give, several simulations a point.
	Profiled Depth = iota
	// PointsOnly simulates each point as it is, with its band, and names
	// no limit: one simulation a point (and its band's edges).
	PointsOnly
)

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

// modeled is a target whose runs are configurations of the shop's model,
// which profileEach simulates itself: each configuration once, however
// many profiles ask for it, and a band's edges apart from its point.
type modeled interface {
	// simulated is the configuration run(k) simulates: with its Range
	// for the system as it is, a probe (model.Config.Probe) for a
	// relief.
	simulated(k knobs) model.Config
}

// profileAll profiles every target (profileEach), and returns their
// profiles, nil for a target whose profile failed, with its error.
func profileAll(ts []target) ([]*Profile, []error) {
	out := make([]*Profile, len(ts))
	errs := make([]error, len(ts))
	profileEach(ts, Profiled, func(i int, pr *Profile, err error) bool {
		out[i], errs[i] = pr, err
		return true
	})
	return out, errs
}

// simRun is one simulation profileEach runs: a configuration of the model,
// or a target's own run of a relief's knobs.
type simRun struct {
	cfg   model.Config // a modeled target's
	own   bool         // a target's own run of k, not of cfg
	t     int          // the target whose own run it is
	k     knobs
	res   model.Result // cfg's
	point results.Point
	err   error
	users []int // the targets that wait for it
}

// plan is what a target's profile needs: the simulation of the point as
// it is, of its band's edges (a modeled target with a Range) and of each
// relief, as indexes into the simulations.
type plan struct {
	rs      []relief
	now     model.Config // a modeled target's configuration as it is
	base    int
	edges   []int
	reliefs []int
	left    int  // simulations still to run
	bare    bool // the point alone (depth PointsOnly): no relief, no verdict
}

// profileEach profiles every target, as many simulations at once as there
// are CPUs: the point as it is, its band's edges and every relief of
// every target, each configuration of the model simulated once however
// many targets ask for it — the relief "one more CPU and one more
// customer" of a point on N CPUs is the point on N+1 CPUs, where the
// targets hold it, simulated over its full window. A relief's probe is
// simulated only where no full run of its configuration is among them.
// Once a target's simulations are done, where no single relief helps,
// the search for a combined one runs. Each target's profile, or its error,
// is handed to each in the targets' order, as soon as it and those
// before it are done; each returning false stops the simulations not yet
// started (those running end as their Cancel says). At depth PointsOnly
// no relief is tried: a profile is the point as it is, with its band.
func profileEach(ts []target, depth Depth, each func(i int, pr *Profile, err error) bool) {
	var runs []*simRun
	keyed := map[model.Config]int{} // a configuration's simulation
	add := func(s *simRun, key model.Config, ok bool) int {
		if ok {
			if j, found := keyed[key]; found {
				return j
			}
			keyed[key] = len(runs)
		}
		runs = append(runs, s)
		return len(runs) - 1
	}
	plans := make([]plan, len(ts))
	// First every point as it is, so that a relief finds the full run of
	// its configuration where a target's point is one.
	for i, t := range ts {
		p := &plans[i]
		if p.bare = depth == PointsOnly; !p.bare {
			p.rs = t.reliefs()
		}
		m, ok := t.(modeled)
		if !ok {
			p.base = add(&simRun{own: true, t: i}, model.Config{}, false)
			continue
		}
		p.now = m.simulated(knobs{})
		c := simKey(p.now)
		p.base = add(&simRun{cfg: c}, c, true)
		for _, e := range p.now.BandConfigs() {
			p.edges = append(p.edges, add(&simRun{cfg: e}, simKey(e), true))
		}
	}
	for i, t := range ts {
		p := &plans[i]
		m, ok := t.(modeled)
		for _, r := range p.rs {
			if !ok {
				p.reliefs = append(p.reliefs, add(&simRun{own: true, t: i, k: r.k}, model.Config{}, false))
				continue
			}
			c := simKey(m.simulated(r.k))
			full := c
			full.Probe = false
			if j, found := keyed[full]; found {
				p.reliefs = append(p.reliefs, j)
				continue
			}
			p.reliefs = append(p.reliefs, add(&simRun{cfg: c}, c, true))
		}
	}
	for i := range plans {
		p := &plans[i]
		for _, j := range slices.Concat([]int{p.base}, p.edges, p.reliefs) {
			if !slices.Contains(runs[j].users, i) {
				runs[j].users = append(runs[j].users, i)
				p.left++
			}
		}
	}

	profiles := make([]*Profile, len(ts))
	errs := make([]error, len(ts))
	done := make([]chan struct{}, len(ts))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var mu sync.Mutex // guards plans' left
	var stop atomic.Bool
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		parallel.Do(len(runs), func(j int) {
			s := runs[j]
			switch {
			case stop.Load(): // nobody waits for its profile
			case s.own:
				s.point, s.err = ts[s.t].run(s.k)
			default:
				s.res, s.err = model.Run(s.cfg)
			}
			for _, i := range s.users {
				mu.Lock()
				plans[i].left--
				last := plans[i].left == 0
				mu.Unlock()
				if !last {
					continue
				}
				if !stop.Load() { // stop, once set, stays: every simulation the plan needs ran
					profiles[i], errs[i] = finish(ts[i], &plans[i], runs)
				}
				close(done[i])
			}
		})
	}()
	for i := range ts {
		<-done[i]
		if stop.Load() {
			continue
		}
		if !each(i, profiles[i], errs[i]) {
			stop.Store(true)
		}
	}
	<-finished
}

// simKey is the configuration c simulates, as profileEach tells one from
// another: its customers counted out (0 is one per CPU), with no band.
func simKey(c model.Config) model.Config {
	if c.Customers == 0 {
		c.Customers = c.CPUs
	}
	c.Range = nil
	return c
}

// finish is target t's profile from its plan's simulations: its point as
// it is, with its band, every relief tried, best first, the combined
// relief where no single one helps, and the verdict.
func finish(t target, p *plan, runs []*simRun) (*Profile, error) {
	// A probe, shorter than the point as it is, is compared with the
	// point over the same window (model.Result.Carry).
	var base model.Result
	if !runs[p.base].own {
		base = runs[p.base].res
	}
	point := func(j int, what string) (results.Point, error) {
		s := runs[j]
		if s.err != nil {
			return results.Point{}, fmt.Errorf("%s, %s: %w", t.system(), what, s.err)
		}
		if s.own {
			return s.point, nil
		}
		return base.Carry(s.res).Point(s.cfg), nil
	}
	now, err := point(p.base, "as it is")
	if err != nil {
		return nil, err
	}
	if !runs[p.base].own {
		r := runs[p.base].res
		if len(p.edges) > 0 {
			edges := make([]model.Result, len(p.edges))
			for n, j := range p.edges {
				if runs[j].err != nil {
					return nil, fmt.Errorf("%s, as it is: %w", t.system(), runs[j].err)
				}
				edges[n] = base.Carry(runs[j].res)
			}
			r.Band = model.BandOf(r, edges)
		}
		now = r.Point(p.now)
	}
	pr := &Profile{System: t.system(), Now: now}
	if c, ok := t.config(knobs{}); ok {
		pr.Config = &c
	}
	if p.bare {
		return pr, nil
	}
	for n, r := range p.rs {
		pt, err := point(p.reliefs[n], r.change)
		if err != nil {
			return nil, err
		}
		pr.Trials = append(pr.Trials, trial(t, r, pr.Now, pt))
	}
	// Best first; equal gains keep the order tried.
	slices.SortStableFunc(pr.Trials, func(a, b Trial) int { return cmp.Compare(b.Gain, a.Gain) })
	if len(pr.Trials) == 0 || pr.Trials[0].Gain <= MinGain {
		c, err := combine(t, pr, p.rs)
		if err != nil {
			return nil, err
		}
		pr.Combined = c
	}
	pr.Bottleneck = verdict(t, pr)
	return pr, nil
}

// trial is relief r's experiment, from the point it gave against now.
func trial(t target, r relief, now, p results.Point) Trial {
	e := results.Experiment{Change: r.change, Kind: r.kind, Resources: r.relieves,
		Throughput: p.Throughput, P50Ms: p.Latency.P50, P99Ms: p.Latency.P99}
	if now.Throughput > 0 {
		e.Gain = p.Throughput/now.Throughput - 1
	}
	switch {
	case p.DurS < now.DurS:
		e.WindowS = p.DurS // a probe: its latencies are not the point's window's
	default:
		if now.Latency.P50 > 0 {
			e.P50Change = p.Latency.P50/now.Latency.P50 - 1
		}
		if now.Latency.P99 > 0 {
			e.P99Change = p.Latency.P99/now.Latency.P99 - 1
		}
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
		c.cost = c.cost.Add(p.cost)
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
