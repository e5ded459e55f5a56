package verdict

import (
	"slices"
	"strings"

	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// Grid is a study's shop points laid out as modes (in the order they first
// appear) by CPU counts (ascending).
type Grid struct {
	Modes []string
	CPUs  []int
	cells map[cellKey]*Cell
}

type cellKey struct {
	mode string
	cpus int
}

// Cell is one mode on one CPU count: its measurement and its prediction,
// either of which may be missing.
type Cell struct {
	Mode     string
	CPUs     int
	Measured *Entry
	Model    *Entry
}

// Shown is the entry that speaks for the cell: the measurement where there
// is one, the model's prediction otherwise.
func (c *Cell) Shown() *Entry {
	if c.Measured != nil {
		return c.Measured
	}
	return c.Model
}

// Entry is one kind of point of a cell, its repetitions reduced to
// medians.
type Entry struct {
	// Source says where it comes from: "measured" (on Host) or "model
	// (go)", "model (fifo)".
	Source string
	Host   string
	Model  bool
	// Throughput and P50 (ms) are medians over the repetitions; Reps
	// counts them, Disturbed those other processes took CPU from.
	Throughput, P50, P99 float64
	Util                 float64
	Unit                 string
	Reps, Disturbed      int
	// Limit is what limits it, from the first repetition's bottleneck.
	Limit Limit
	// Point is the first repetition.
	Point results.Point
}

// Limit is what limits a point, as its causal profile found it, in the
// few classes the map of what limits what colours.
type Limit struct {
	// Class is "cpus" (more CPUs help: the point scales), "customers"
	// (more customers or servers help), a machine's kind ("grinder"), the
	// "kitchen" lock, a pipeline's or a YAML system's resource, "machines"
	// where several machines bind together, "channel", "step", "none"
	// (nothing tried helps, or an open loop keeps up) or "unknown" (no
	// profile).
	Class string
	// Named says what limits it for people, in short: "the grinder",
	// "the CPUs", "the grinder, espresso machine and steamer together";
	// the bottleneck's own Named lists every resource.
	Named string
	// Change is the best change the profile tried and Gain what it gains
	// (0.5 is 50 % more); empty where nothing tried helps.
	Change string
	Gain   float64
	// Combined says the change relieves several resources at once.
	Combined bool
}

// Scales reports whether the point is limited by its CPUs (or the
// customers the CPUs bring): more CPUs is what helps.
func (l Limit) Scales() bool { return l.Class == "cpus" || l.Class == "customers" }

// LimitOf classifies a point's bottleneck.
func LimitOf(b *results.Bottleneck) Limit {
	if b == nil || b.Resource == "" {
		return Limit{Class: "unknown", Named: "no causal profile"}
	}
	l := Limit{Gain: b.Gain}
	switch {
	case b.Combined != nil:
		l.Change, l.Combined = b.Combined.Change, true
	case len(b.Recommend) > 0:
		l.Change = b.Recommend[0]
	}
	rs := b.Resources
	if len(rs) == 0 {
		rs = []string{b.Resource}
	}
	var machines []string
	cpus, customers := false, false
	other := ""
	for _, r := range rs {
		switch {
		case r == "cpus":
			cpus = true
		case r == "customers" || r == "servers":
			customers = true
		case strings.HasPrefix(r, "channel:"):
			other = appendFirst(other, "channel")
		case strings.HasPrefix(r, "step:"):
			other = appendFirst(other, "step")
		case r == "none" || r == "arrivals":
			other = appendFirst(other, "none")
		case r == "unknown":
			other = appendFirst(other, "unknown")
		default:
			if k := scaling.Kind(r); !slices.Contains(machines, k) {
				machines = append(machines, k)
			}
		}
	}
	switch {
	case len(machines) > 1:
		l.Class = "machines"
		var words []string
		for _, m := range machines {
			words = append(words, word(m))
		}
		if cpus {
			words = append(words, "CPUs")
		}
		l.Named = "the " + format.JoinAnd(words) + " together"
	case len(machines) == 1:
		l.Class, l.Named = machines[0], b.Named
		if cpus || customers { // a machine with the CPUs: named in full
			l.Named = "the " + word(machines[0]) + " and the CPUs together"
		}
	case cpus:
		l.Class, l.Named = "cpus", "the CPUs"
	case customers:
		l.Class, l.Named = "customers", b.Named
	case other != "":
		l.Class, l.Named = other, b.Named
		if other == "none" {
			l.Named = "nothing tried"
		}
	default:
		l.Class, l.Named = "unknown", "not profiled"
	}
	if l.Class == "unknown" {
		l.Named = "no causal profile"
	}
	if l.Named == "" {
		l.Named = b.Resource
	}
	return l
}

// word names a kind of resource for people: "espresso machine",
// "kitchen lock", "grinder".
func word(kind string) string {
	switch kind {
	case "espresso":
		return "espresso machine"
	case "kitchen":
		return "kitchen lock"
	}
	return kind
}

func appendFirst(have, s string) string {
	if have != "" {
		return have
	}
	return s
}

// At returns the cell of mode on cpus, if there is one.
func (g *Grid) At(mode string, cpus int) (*Cell, bool) {
	c, ok := g.cells[cellKey{mode, cpus}]
	return c, ok
}

// NewGrid lays out the shop's points (labs' are left out, and so are the
// user's own code's — a study's, a Go benchmark's — which have no causal
// profile to map). Of each mode it
// takes one series of measurements (those of the first machine and load
// it was measured under) and one of predictions (the first policy and
// load), so that a cell compares like with like; repetitions become
// medians.
func NewGrid(points []results.Point) *Grid {
	g := &Grid{cells: map[cellKey]*Cell{}}
	type series struct {
		mode  string
		model bool
	}
	first := map[series]string{}
	groups := map[cellKey][2][]results.Point{}
	var keys []cellKey
	for _, p := range points {
		if p.Kind() == results.KindLab || p.IsUserCode() {
			continue
		}
		s := series{p.Mode, p.IsModel()}
		id := seriesID(p)
		if f, ok := first[s]; !ok {
			first[s] = id
		} else if f != id {
			continue
		}
		if !slices.Contains(g.Modes, p.Mode) {
			g.Modes = append(g.Modes, p.Mode)
		}
		if !slices.Contains(g.CPUs, p.CPUs) {
			g.CPUs = append(g.CPUs, p.CPUs)
		}
		k := cellKey{p.Mode, p.CPUs}
		gr, ok := groups[k]
		if !ok {
			keys = append(keys, k)
		}
		i := 0
		if p.IsModel() {
			i = 1
		}
		gr[i] = append(gr[i], p)
		groups[k] = gr
	}
	slices.Sort(g.CPUs)
	for _, k := range keys {
		gr := groups[k]
		c := &Cell{Mode: k.mode, CPUs: k.cpus, Measured: entry(gr[0]), Model: entry(gr[1])}
		g.cells[k] = c
	}
	return g
}

// seriesID names what a point's series shares: its source (machine or
// policy) and its load, one customer per CPU counting as one load.
func seriesID(p results.Point) string {
	par := p.Par
	if p.Par == p.CPUs {
		par = -1
	}
	src := p.Origin()
	if p.IsModel() {
		src = "model " + p.Sched
	}
	return strings.Join([]string{src, itoa(par), ftoa(p.Rate), itoa(p.MaxQ), p.Harness}, "|")
}

// entry reduces a cell's points of one kind; nil where there are none.
func entry(ps []results.Point) *Entry {
	if len(ps) == 0 {
		return nil
	}
	first := ps[0]
	for _, p := range ps {
		if p.Rep > 0 && (first.Rep == 0 || p.Rep < first.Rep) {
			first = p
		}
	}
	e := &Entry{Model: first.IsModel(), Unit: first.Unit, Reps: len(ps), Point: first, Limit: LimitOf(first.Bottleneck)}
	if e.Model {
		e.Source = "model"
		if first.Sched != "" {
			e.Source += " (" + first.Sched + ")"
		}
	} else {
		e.Source, e.Host = "measured", first.Origin()
	}
	var tp, p50, p99, util []float64
	for _, p := range ps {
		tp = append(tp, p.Throughput)
		p50 = append(p50, p.Latency.P50)
		p99 = append(p99, p.Latency.P99)
		util = append(util, p.Util)
		if measuredDisturbed(p) {
			e.Disturbed++
		}
	}
	e.Throughput, e.P50, e.P99, e.Util = results.Median(tp), results.Median(p50), results.Median(p99), results.Median(util)
	return e
}
