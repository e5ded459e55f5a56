//go:build !js

package schedule

import (
	"os"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/schedule"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Pictures picks (schedule.Pick) and makes the report's pictures from
// points: each choice's schedule in the model under PolicyFor's policy,
// beside the execution trace of a measured point of it, where the file is
// at hand; and a picture of each chosen mode at its most CPUs profiled.
func Pictures(points []results.Point, span time.Duration) []analysis.Picture {
	var out []analysis.Picture
	for _, c := range schedule.Pick(verdict.NewGrid(points), points, coffee.Declared{}) {
		pic := picture(points, c.Mode, c.CPUs, c.Point, span)
		pic.Does, pic.Shown = c.Does, c.Entry
		out = append(out, pic)
	}
	var extra []analysis.Picture
	for _, pic := range out {
		p, ok := profiled(points, pic.Mode, 0)
		if pic.Trace != nil || !ok || p.CPUs == pic.CPUs {
			continue
		}
		pic := picture(points, p.Mode, p.CPUs, p, span)
		pic.Profiled = true
		extra = append(extra, pic)
	}
	return append(out, extra...)
}

// PolicyFor is the policy the model draws p's configuration under: p's
// own for a prediction (its costs read from its calibration); for a
// measurement, that of the prediction of its mode on as many CPUs among
// points (the go policy's first), else fifo, which needs no calibration.
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
func profiled(points []results.Point, mode string, cpus int) (best results.Point, found bool) {
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

func picture(points []results.Point, mode string, cpus int, p results.Point, span time.Duration) analysis.Picture {
	pic := analysis.Picture{Mode: mode, CPUs: cpus}
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
			pic.ModelErr = err.Error()
		}
	}
	if pr, ok := profiled(points, mode, cpus); ok {
		path := record.FilesFor(pr.Profile).Trace
		if _, err := os.Stat(path); err != nil {
			pic.TraceGone = path
		} else if t, err := schedule.ReadTrace(path, mode, cpus, span); err == nil {
			pic.Trace = &t
		} else {
			pic.TraceErr = err.Error()
		}
	}
	return pic
}
