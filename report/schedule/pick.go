package schedule

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/profile"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Wall is how far below a scaling mode a walled one must fall for Pick to
// draw them: at most 70 % of its throughput, a difference the picture
// shows as whole idle CPUs.
const Wall = 0.7

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
// the mode that has hit a wall of one resource (its limit at its most
// CPUs a single machine or lock, not the CPUs) and makes the most there,
// beside the mode that still scales (limited by the CPUs, ideal's race
// aside) and makes the most, at the least CPU count where the first makes
// at most Wall of the second — finelocking and multi-2 on 6 CPUs, in the
// talk's shop. The two are compared on at least 2 CPUs, both measured or
// both predicted. Without a mode at a wall it picks the best scaling one
// at the most CPUs; without either, nothing.
func Pick(g *verdict.Grid) []Choice {
	shown := func(mode string, n int) *verdict.Entry {
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
	single := func(l verdict.Limit) bool {
		switch l.Class {
		case "cpus", "customers", "machines", "none", "unknown", "channel", "step":
			return false
		}
		return true
	}
	walled, best := "", 0.0
	for pass := 0; pass < 2 && walled == ""; pass++ {
		for _, m := range g.Modes {
			e := shown(m, top(m))
			if e == nil || e.Limit.Scales() || (pass == 0 && !single(e.Limit)) || e.Limit.Class == "unknown" {
				continue
			}
			if e.Throughput > best {
				walled, best = m, e.Throughput
			}
		}
	}
	racy := func(m string) bool {
		mode, err := coffee.ParseMode(m)
		return err == nil && mode.Races()
	}
	// scaling is the best mode that scales on n CPUs, of one kind
	// (measured or predicted) where kind says which.
	scaling := func(n int, kind *bool) (string, *verdict.Entry) {
		var name string
		var be *verdict.Entry
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
		return Choice{Mode: mode, CPUs: n, Why: why, Point: c.Shown().Point}
	}
	if walled == "" {
		for i := len(g.CPUs) - 1; i >= 0; i-- {
			if m, e := scaling(g.CPUs[i], nil); e != nil {
				return []Choice{choice(m, g.CPUs[i], fmt.Sprintf("%s on %s keeps scaling: %s %s, limited by %s, %s.",
					m, cpusText(g.CPUs[i]), rate(e.Throughput), e.Unit, e.Limit.Named, as(e)))}
			}
		}
		return nil
	}
	n, partner := 0, ""
	var we, pe *verdict.Entry
	for _, c := range g.CPUs {
		w := shown(walled, c)
		// On one CPU everything waits for it: a wall shows from two. The
		// pair compares like with like, both measured or both predicted.
		if w == nil || w.Limit.Scales() || c < 2 {
			continue
		}
		m, e := scaling(c, &w.Model)
		if e == nil {
			continue
		}
		n, partner, we, pe = c, m, w, e
		if w.Throughput <= Wall*e.Throughput {
			break
		}
	}
	if partner == "" {
		n = top(walled)
		we = shown(walled, n)
		return []Choice{choice(walled, n, fmt.Sprintf("%s on %s has hit a wall: %s %s, limited by %s, %s.",
			walled, cpusText(n), rate(we.Throughput), we.Unit, we.Limit.Named, as(we)))}
	}
	return []Choice{
		choice(walled, n, fmt.Sprintf("%s on %s has hit a wall: %s %s, limited by %s, %s.",
			walled, cpusText(n), rate(we.Throughput), we.Unit, we.Limit.Named, as(we))),
		choice(partner, n, fmt.Sprintf("%s on %s keeps scaling: %s %s, limited by %s, %s.",
			partner, cpusText(n), rate(pe.Throughput), pe.Unit, pe.Limit.Named, as(pe))),
	}
}

func rate(v float64) string { return fmt.Sprintf("%.0f", v) }

// as says where an entry's figures come from: "as measured on vm", "as the
// model (go) predicts".
func as(e *verdict.Entry) string {
	if e.Model {
		return "as the " + e.Source + " predicts"
	}
	if e.Host != "" && e.Host != "measured" {
		return "as measured on " + e.Host
	}
	return "as measured"
}

func cpusText(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "CPU")) }

// Picture is one configuration's timelines: the model's, and the real
// run's from its execution trace where the point was profiled.
type Picture struct {
	Mode string
	CPUs int
	Why  string
	// Model is the model's timeline; nil where the model could not
	// simulate it (Note says why).
	Model *Timeline
	// Trace is the profiled point's; nil where none was, or its file
	// could not be read (Note says why).
	Trace *Timeline
	Note  string
}

// Pictures picks (Pick) and makes the report's pictures from points: each
// choice's schedule in the model under the fifo policy, which needs no
// calibration, so that a report re-rendered from its results file draws
// the same; beside it, the execution trace of a measured point of that
// configuration run with --profile, where the file is at hand. Where the
// chosen modes were profiled only on fewer CPUs (a small machine), each
// gets a picture of its most CPUs profiled too, model and trace side by
// side.
func Pictures(points []results.Point, span time.Duration) []Picture {
	g := verdict.NewGrid(points)
	var out []Picture
	for _, c := range Pick(g) {
		out = append(out, picture(points, c.Mode, c.CPUs, c.Why, c.Point, span))
	}
	// Profiled measurements of the chosen modes, at their most CPUs.
	var extra []Picture
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
func picture(points []results.Point, mode string, cpus int, why string, p results.Point, span time.Duration) Picture {
	pic := Picture{Mode: mode, CPUs: cpus, Why: why}
	var notes []string
	if cfg, ok := model.ConfigOf(p); ok {
		cfg.CPUs, cfg.Sched, cfg.Seed = cpus, "fifo", max(p.Seed, 1)
		if t, err := FromModel(cfg, span); err == nil {
			pic.Model = &t
		} else {
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
