package analysis

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Saturated is the utilization from which a resource counts as the
// bottleneck: one busy this much of the time leaves little to gain without
// changing it. Below it on every resource, the load is what limits.
const Saturated = 0.9

// tie is how close two utilizations must be to count as equal, so that
// counters' noise does not pick between resources that bind together.
const tie = 0.02

// Annotate sets the Bottleneck of every point of the shop (or of a YAML
// system, or a study) that has none, so that a results file written or
// re-rendered says what limits each point. Labs' points have their own
// measures and are left as they are, and so are Go benchmarks', which
// measure neither CPU use nor any resource to tell by.
func Annotate(points []results.Point) {
	for i := range points {
		if points[i].Bottleneck == nil && points[i].Lab == "" && points[i].Bench == nil {
			b := Bottleneck(points[i])
			points[i].Bottleneck = &b
		}
	}
}

// Resource is one thing that may limit a point, and how much it was used.
type Resource struct {
	// Name is "cpus" or a shared resource's kind, as Bottleneck.Resource.
	Name        string
	Copies      int
	Utilization float64
	// Bound is the throughput it allows, as Bottleneck.Bound.
	Bound float64
}

// Resources lists what may limit p, the CPUs first and then each kind of
// shared resource p's mode holds, with their use and bounds.
func Resources(p results.Point) []Resource {
	st, known := structureOf(p)
	var out []Resource
	for _, c := range candidates(p, st, known) {
		out = append(out, Resource{Name: c.name, Copies: c.copies, Utilization: c.util, Bound: c.bound})
	}
	return out
}

// candidate is one resource that may limit a point.
type candidate struct {
	name   string // as Bottleneck.Resource: "cpus" or a machine's kind
	copies int
	util   float64 // fraction of the time in use
	waitMs float64 // mean wait per use; 0 for the CPUs
	bound  float64 // throughput it allows; 0 if unknown
	// lock is the meter kind of a user's lock (package meter: "mutex",
	// "rwmutex"), empty for the shop's machines; held is then the mean
	// fraction of the time a copy was held and waitShare the fraction of
	// the workers' time spent waiting for one, which util adds up.
	lock            string
	held, waitShare float64
}

// Bottleneck names what limits p: the resource closest to being used all
// the time, from p's own counters (for a measurement, the machines'
// busy meters and the process's CPU time; for the model, its exact
// accounting). A machine and the CPUs that bind together are a tie, and
// the machine is named, as more CPUs alone would not help. When nothing is
// used at least Saturated of the time, the load is the limit: the
// customers of a closed loop, or, in an open loop, the arrivals it keeps
// up with (or the servers, if it drops some).
//
// The bound is what the model's structure of p's mode allows (the
// resource's copies over the time a latte holds one, or the CPUs over a
// latte's CPU time); where the model does not know the mode, it is the
// throughput the resource would give if used all the time.
func Bottleneck(p results.Point) results.Bottleneck {
	st, known := structureOf(p)
	cands := candidates(p, st, known)
	top := cands[0]
	for _, c := range cands[1:] {
		if c.util > top.util+tie || (top.name == "cpus" && c.util >= top.util-tie) {
			top = c
		}
	}
	if top.util >= Saturated {
		return saturated(p, top, cands)
	}
	return loadLimited(p, top, st, known)
}

// candidates lists the CPUs and every kind of shared resource of p, with
// their use and the bounds they set. The resources are those p's mode
// holds (ideal's machines are used by many at once, and limit nothing);
// copies of a kind ("grinder#1", "grinder#2") are one pool.
func candidates(p results.Point, st model.Structure, known bool) []candidate {
	cpus := candidate{name: "cpus", copies: p.CPUs, util: p.Util}
	if known && st.CPU > 0 {
		cpus.bound = float64(p.CPUs) / st.CPU
	} else if p.Bounds != nil {
		cpus.bound = p.Bounds.CPU
	}
	if cpus.bound == 0 && p.Util > 0 {
		cpus.bound = p.Throughput / p.Util
	}
	out := []candidate{cpus}
	index := map[string]int{}
	var uses []int64
	for _, m := range p.Machines {
		kind := Kind(m.Name)
		if known && !slices.ContainsFunc(st.Resources, func(r model.Resource) bool { return Kind(r.Name) == kind }) {
			continue
		}
		i, ok := index[kind]
		if !ok {
			i = len(out)
			index[kind] = i
			out = append(out, candidate{name: kind})
			uses = append(uses, 0)
		}
		c := &out[i]
		c.copies++
		c.util += m.BusyFrac
		c.waitMs += m.MeanWaitMs * float64(m.Uses)
		uses[i-1] += m.Uses
		if isLock(m.Kind) {
			c.lock = m.Kind
		}
	}
	for i := 1; i < len(out); i++ {
		c := &out[i]
		c.util /= float64(c.copies)
		if c.lock != "" && p.Par > 0 && p.DurS > 0 {
			// A contended lock passes from one goroutine to the next
			// slower than it is held (a waiter is woken, the lock's
			// memory moves between CPUs): the time its callers wait
			// counts as its use too.
			c.held = c.util
			c.waitShare = c.waitMs / 1000 / (float64(p.Par) * p.DurS)
			c.util = min(1, c.held+c.waitShare)
		}
		if uses[i-1] > 0 {
			c.waitMs /= float64(uses[i-1])
		}
		for _, r := range st.Resources {
			if Kind(r.Name) == c.name && r.Hold > 0 {
				c.bound = float64(r.Copies) / r.Hold
			}
		}
		if c.bound == 0 && p.Bounds != nil && Kind(p.Bounds.Resource) == c.name {
			c.bound = p.Bounds.Structural
		}
		if c.bound == 0 && c.util > 0 {
			c.bound = p.Throughput / c.util
		}
	}
	return out
}

// saturated says that top, used nearly all the time, is the bottleneck,
// naming any resource that binds with it and what else is used how much.
func saturated(p results.Point, top candidate, cands []candidate) results.Bottleneck {
	var text strings.Builder
	var with []string
	for _, c := range cands {
		if c.name != top.name && c.name != "cpus" && c.util >= top.util-tie {
			with = append(with, label(c))
		}
	}
	if top.name == "cpus" {
		fmt.Fprintf(&text, "CPUs %s used: add CPUs, or make each %s cost less CPU", percent(top.util), drink(p.Unit))
		if busiest := busiestMachine(cands); busiest != nil {
			fmt.Fprintf(&text, "; %s %s busy", label(*busiest), percent(busiest.util))
		}
	} else if top.lock != "" {
		fmt.Fprintf(&text, "%s held %s of the time, its callers waiting %s of theirs", label(top), percent(top.held), percent(top.waitShare))
		if top.waitMs > 0 {
			fmt.Fprintf(&text, " (%s per use)", formatMs(top.waitMs))
		}
		fmt.Fprintf(&text, ": split it into several locks, each guarding part of the data (shard it), or hold it for less; CPUs %s used", percent(cpuUtil(cands)))
	} else {
		fmt.Fprintf(&text, "%s %s %s of the time", label(top), busyVerb(top.name), percent(top.util))
		if len(with) > 0 {
			fmt.Fprintf(&text, " (%s too)", strings.Join(with, " and "))
		}
		if top.waitMs > 0 {
			fmt.Fprintf(&text, ", %s wait per use", formatMs(top.waitMs))
		}
		fmt.Fprintf(&text, ": %s; CPUs %s used", advice(p.Mode, top, len(with) > 0), percent(cpuUtil(cands)))
	}
	if top.bound > 0 {
		fmt.Fprintf(&text, ". It allows %.0f %s; this point reaches %s of that", top.bound, p.Unit, percent(p.Throughput/top.bound))
	}
	return results.Bottleneck{Resource: top.name, Utilization: top.util, Bound: top.bound, Text: text.String()}
}

// loadLimited says that nothing is saturated, so the load limits: too few
// customers, or arrivals the shop keeps up with, or too few servers.
func loadLimited(p results.Point, busiest candidate, st model.Structure, known bool) results.Bottleneck {
	b := results.Bottleneck{}
	busy := fmt.Sprintf("busiest: %s %s", label(busiest), percent(busiest.util))
	if busiest.name != "cpus" {
		busy += fmt.Sprintf(", CPUs %s", percent(p.Util))
	}
	switch {
	case p.Rate > 0 && p.Drops == 0:
		b.Resource, b.Bound = "arrivals", p.Rate
		b.Text = fmt.Sprintf("keeps up with the %g orders/s arriving; nothing is saturated (%s)", p.Rate, busy)
	case p.Rate > 0:
		b.Resource = "servers"
		b.Text = fmt.Sprintf("%s drop orders while nothing is saturated (%s): add servers or queue room", plural(p.Par, "server"), busy)
	default:
		b.Resource = "customers"
		b.Text = fmt.Sprintf("%s at a time %s it, nothing is saturated (%s): add customers", plural(p.Par, "customer"), map[bool]string{true: "limits", false: "limit"}[p.Par == 1], busy)
	}
	// The load's bound: each worker completes one order per critical path
	// at best.
	path := 0.0
	switch {
	case known:
		path = max(st.Path, st.CPU/float64(p.CPUs))
	case p.Bounds != nil:
		path = p.Bounds.LatencyMinMs / 1000
	}
	if b.Resource != "arrivals" && path > 0 {
		b.Bound = float64(p.Par) / path
	}
	if b.Bound > 0 {
		b.Utilization = p.Throughput / b.Bound
		b.Text += fmt.Sprintf(". They allow %.0f %s; this point reaches %s of that", b.Bound, p.Unit, percent(b.Utilization))
	}
	return b
}

// structureOf is the model's structure of p's mode at p's steps, and
// whether the model knows the mode (a blueprint's is not a coffee mode).
func structureOf(p results.Point) (model.Structure, bool) {
	if _, err := coffee.ParseMode(p.Mode); err != nil {
		return model.Structure{}, false
	}
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	st, err := model.StructureOf(model.Config{
		Mode: p.Mode, CPUs: max(p.CPUs, 1), Customers: p.Par, Rate: p.Rate, MaxQ: p.MaxQ,
		Grind: ms(p.Steps.GrindMs), Press: ms(p.Steps.PressMs), Steam: ms(p.Steps.SteamMs),
		Combine: ms(p.Steps.LatteMs), Jitter: ms(p.Steps.JitterMs),
		Duration: time.Second,
	})
	return st, err == nil
}

// isLock reports whether a machine's kind is a lock metered by package
// meter.
func isLock(kind string) bool { return kind == "mutex" || kind == "rwmutex" }

// Kind is the kind of a resource from its name: the name without a copy's
// number ("grinder#2") or a pool's size ("grinder×2").
func Kind(name string) string {
	if i := strings.IndexAny(name, "#×"); i > 0 {
		return name[:i]
	}
	return name
}

func busiestMachine(cands []candidate) *candidate {
	var b *candidate
	for i := range cands {
		if cands[i].name != "cpus" && (b == nil || cands[i].util > b.util) {
			b = &cands[i]
		}
	}
	return b
}

func cpuUtil(cands []candidate) float64 {
	for _, c := range cands {
		if c.name == "cpus" {
			return c.util
		}
	}
	return 0
}

// label names a resource for people: "grinder", "2 grinders", "kitchen
// lock", "espresso machine", "mutex cache", "16 mutexes shard".
func label(c candidate) string {
	if c.lock != "" {
		if c.copies > 1 {
			return fmt.Sprintf("%d %ses %s", c.copies, c.lock, c.name)
		}
		return c.lock + " " + c.name
	}
	name := c.name
	switch name {
	case "cpus":
		return "CPUs"
	case "kitchen":
		return "kitchen lock"
	case "espresso":
		name = "espresso machine"
	}
	if c.copies > 1 {
		return fmt.Sprintf("%d %ss", c.copies, name)
	}
	return name
}

func busyVerb(name string) string {
	if name == "kitchen" {
		return "held"
	}
	return "busy"
}

// advice says how to lift a saturated resource's bound: another copy, or
// less time holding it.
func advice(mode string, c candidate, others bool) string {
	step := map[string]string{"grinder": "grinding", "espresso": "pressing", "steamer": "steaming"}[c.name]
	m, _ := coffee.ParseMode(mode)
	switch {
	case c.name == "kitchen":
		return "split it into a lock per machine (finelocking), or hold it for less"
	case step != "" && strings.HasSuffix(m.Family, "pipe"):
		return fmt.Sprintf("add another line of machines (multipipe), or shorten %s", step)
	case step != "" && others:
		next := "multi-2"
		if m.Family == "multi" {
			next = fmt.Sprintf("multi-%d", m.N+1)
		}
		return fmt.Sprintf("add a copy of each busy machine (%s), or shorten their steps", next)
	case step != "":
		return fmt.Sprintf("add a %s, or shorten %s", c.name, step)
	}
	return fmt.Sprintf("add capacity to %s, or hold it for less", c.name)
}

// drink is what one operation is called, from the unit: "latte" for
// "lattes/s".
func drink(unit string) string {
	u := strings.TrimSuffix(unit, "/s")
	return strings.TrimSuffix(u, "s")
}

func percent(f float64) string { return fmt.Sprintf("%.0f %%", 100*f) }

func formatMs(ms float64) string {
	if ms < 0.001 { // a user's lock, waited for nanoseconds
		return fmt.Sprintf("%.0f ns", ms*1e6)
	}
	if ms < 0.1 {
		return fmt.Sprintf("%.0f µs", ms*1000)
	}
	return fmt.Sprintf("%.2g ms", ms)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
