package schedule

import (
	"github.com/brewput/brewput/results/analysis"

	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/profile"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/results"
)

// Span is the stretch of time a picture shows by default: 20 ms, five
// lattes of the talk's shop per customer.
const Span = 20 * time.Millisecond

// Wall is how far below a scaling mode a walled one must fall for Pick to
// draw them side by side: at most 70 % of its throughput, a difference the
// picture shows as whole idle CPUs.
const Wall = 0.7

// Flat is how much more a walled mode may make at its most CPUs than on
// the CPUs it is drawn on for Pick to say it has hit a wall there: 5 %.
// More than that, and more CPUs still move it.
const Flat = 0.05

// Choice is a configuration to draw: a mode on a CPU count, with the point
// that says how it ran.
type Choice struct {
	Mode string
	CPUs int
	// Why says in words why it is drawn, from the points' figures.
	Why   string
	Point results.Point
}

// Pick chooses the report's pictures from a study's points laid out in g:
// a mode that has hit a wall (its limit at its most CPUs not the CPUs;
// one of a single machine or lock preferred, then the most throughput)
// beside the mode that still scales (limited by the CPUs, ideal's race
// aside) and makes the most, at the least CPU count where the first makes
// at most Wall of the second and no more than Flat less than at its most
// CPUs — finelocking and multi-2 on 6 CPUs, in the talk's shop. The two
// are compared on at least 2 CPUs, both measured or both predicted. The
// pair is drawn, and a wall named, only where that contrast holds; where
// no mode at a wall has it, Pick draws the first alone at its most CPUs,
// saying what limits it; without a mode at a wall, the best scaling one at
// the most CPUs; without either, nothing.
func Pick(g *analysis.Grid, points []results.Point) []Choice {
	shown := func(mode string, n int) *analysis.Entry {
		if c, ok := g.At(mode, n); ok {
			return c.Shown()
		}
		return nil
	}
	top := func(mode string) int {
		t := 0
		for _, n := range g.CPUs {
			if shown(mode, n) != nil {
				t = n
			}
		}
		return t
	}
	single := func(l analysis.Limit) bool {
		switch l.Class {
		case "cpus", "customers", "machines", "none", "unknown", "channel", "step":
			return false
		}
		return true
	}
	// walls are the modes at a wall at their most CPUs: those of one
	// resource first, each kind by throughput, the most first.
	var walls []string
	for pass := range 2 {
		var these []string
		for _, m := range g.Modes {
			e := shown(m, top(m))
			if e == nil || e.Limit.Scales() || e.Limit.Class == "unknown" || single(e.Limit) != (pass == 0) {
				continue
			}
			these = append(these, m)
		}
		slices.SortStableFunc(these, func(a, b string) int {
			return cmp.Compare(shown(b, top(b)).Throughput, shown(a, top(a)).Throughput)
		})
		walls = append(walls, these...)
	}
	racy := func(m string) bool {
		mode, err := coffee.ParseMode(m)
		return err == nil && mode.Races()
	}
	// scaling is the best mode other than walled that scales on n CPUs,
	// of one kind (measured or predicted) where kind says which.
	scaling := func(walled string, n int, kind *bool) (string, *analysis.Entry) {
		var name string
		var be *analysis.Entry
		for _, m := range g.Modes {
			e := shown(m, n)
			if m == walled || racy(m) || e == nil || !e.Limit.Scales() || kind != nil && e.Model != *kind {
				continue
			}
			if be == nil || e.Throughput > be.Throughput {
				name, be = m, e
			}
		}
		return name, be
	}
	choice := func(mode string, n int, why string) Choice {
		c, _ := g.At(mode, n)
		return Choice{Mode: mode, CPUs: n, Why: why, Point: points[c.Shown().First]}
	}
	if len(walls) == 0 {
		for i := len(g.CPUs) - 1; i >= 0; i-- {
			if m, e := scaling("", g.CPUs[i], nil); e != nil {
				return []Choice{choice(m, g.CPUs[i], fmt.Sprintf("%s on %s keeps scaling: %s %s, limited by %s, %s.",
					m, cpusText(g.CPUs[i]), rate(e.Throughput), e.Unit, e.Limit.Named, as(e)))}
			}
		}
		return nil
	}
	for _, walled := range walls {
		most := shown(walled, top(walled)).Throughput
		for _, c := range g.CPUs {
			we := shown(walled, c)
			// On one CPU everything waits for it: a wall shows from two.
			// The pair compares like with like, both measured or both
			// predicted.
			if we == nil || we.Limit.Scales() || c < 2 || most > (1+Flat)*we.Throughput {
				continue
			}
			partner, pe := scaling(walled, c, &we.Model)
			if pe == nil || we.Throughput > Wall*pe.Throughput {
				continue
			}
			return []Choice{
				choice(walled, c, fmt.Sprintf("%s on %s has hit a wall: %s %s, limited by %s, %s.",
					walled, cpusText(c), rate(we.Throughput), we.Unit, we.Limit.Named, as(we))),
				choice(partner, c, fmt.Sprintf("%s on %s keeps scaling: %s %s, limited by %s, %s.",
					partner, cpusText(c), rate(pe.Throughput), pe.Unit, pe.Limit.Named, as(pe))),
			}
		}
	}
	walled := walls[0]
	n := top(walled)
	we := shown(walled, n)
	return []Choice{choice(walled, n, fmt.Sprintf("%s on %s is limited by %s: %s %s, %s; no mode that scales makes enough more beside it to draw the two.",
		walled, cpusText(n), we.Limit.Named, rate(we.Throughput), we.Unit, as(we)))}
}

func rate(v float64) string { return fmt.Sprintf("%.0f", v) }

// as says where an entry's figures come from: "as measured on vm", "as the
// model (go) predicts".
func as(e *analysis.Entry) string {
	if e.Model {
		return "as the " + e.Source + " predicts"
	}
	if e.Host != "" && e.Host != "measured" {
		return "as measured on " + e.Host
	}
	return "as measured"
}

func cpusText(n int) string {
	if n == 1 {
		return "1 CPU"
	}
	return fmt.Sprintf("%d CPUs", n)
}

// Pictures picks (Pick) and makes the report's pictures from points: each
// choice's schedule in the model under the policy its heading names —
// a prediction's own (calibrate.PolicyOf: its costs read back from the
// calibration the point names, so that a report re-rendered from its
// results file draws the same), or for a measured point that of the
// prediction of its configuration among points, and fifo, which needs no
// calibration, where there is none; beside it, the execution trace of a
// measured point of that configuration run with --profile, where the
// file is at hand. Where the chosen modes were profiled only on fewer
// CPUs (a small machine), each gets a picture of its most CPUs profiled
// too, model and trace side by side.
func Pictures(points []results.Point, span time.Duration) []analysis.Picture {
	g := verdict.NewGrid(points)
	var out []analysis.Picture
	for _, c := range Pick(g, points) {
		out = append(out, picture(points, c.Mode, c.CPUs, c.Why, c.Point, span))
	}
	// Profiled measurements of the chosen modes, at their most CPUs.
	var extra []analysis.Picture
	for _, pic := range out {
		if pic.Trace != nil {
			continue
		}
		p, ok := profiled(points, pic.Mode, 0)
		if !ok || p.CPUs == pic.CPUs {
			continue
		}
		why := fmt.Sprintf("%s on %s, measured with --profile: the model's schedule beside the real one.", p.Mode, cpusText(p.CPUs))
		extra = append(extra, picture(points, p.Mode, p.CPUs, why, p, span))
	}
	return append(out, extra...)
}

// PolicyFor is the policy the model draws p's configuration under (see
// Pictures): p's own where it is a prediction, that of the prediction of
// its mode on as many CPUs among points where it is measured (the go
// policy's first), fifo with p's seed where there is none.
func PolicyFor(points []results.Point, p results.Point) (model.Policy, error) {
	if p.IsModel() {
		return calibrate.PolicyOf(p)
	}
	var found *results.Point
	for i, q := range points {
		if q.IsModel() && q.Mode == p.Mode && q.CPUs == p.CPUs && (found == nil || found.Sched != "go" && q.Sched == "go") {
			found = &points[i]
		}
	}
	if found != nil {
		return calibrate.PolicyOf(*found)
	}
	return model.Policy{Policy: results.Policy{Sched: "fifo", Seed: max(p.Seed, 1)}}, nil
}

// profiled finds the first measured point of mode on cpus (any, if 0:
// the most CPUs) with profile files.
func profiled(points []results.Point, mode string, cpus int) (results.Point, bool) {
	var best results.Point
	found := false
	for _, p := range points {
		if p.Mode != mode || p.IsModel() || p.Profile == "" || (cpus > 0 && p.CPUs != cpus) {
			continue
		}
		if !found || p.CPUs > best.CPUs || (p.CPUs == best.CPUs && p.Rep < best.Rep) {
			best, found = p, true
		}
	}
	return best, found
}

// picture makes one configuration's timelines.
func picture(points []results.Point, mode string, cpus int, why string, p results.Point, span time.Duration) analysis.Picture {
	pic := analysis.Picture{Mode: mode, CPUs: cpus, Why: why}
	var notes []string
	if cfg, ok := model.ConfigOf(p); ok {
		pol, err := PolicyFor(points, p)
		if err == nil {
			cfg = pol.Apply(cfg)
			cfg.CPUs = cpus
			var t analysis.Timeline
			if t, err = FromModel(cfg, span); err == nil {
				pic.Model = &t
			}
		}
		if err != nil {
			notes = append(notes, "the model cannot draw it: "+err.Error())
		}
	}
	if pr, ok := profiled(points, mode, cpus); ok {
		path := profile.FilesFor(pr.Profile).Trace
		if _, err := os.Stat(path); err != nil {
			notes = append(notes, fmt.Sprintf("the trace of the measured point, %s, is not at hand", path))
		} else if t, err := ReadTrace(path, mode, cpus, span); err == nil {
			pic.Trace = &t
		} else {
			notes = append(notes, "its trace cannot be drawn: "+err.Error())
		}
	}
	if len(notes) > 0 {
		note := strings.Join(notes, "; ")
		pic.Note = strings.ToUpper(note[:1]) + note[1:] + "."
	}
	return pic
}
