package gobench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/driver/studyjob"
	"github.com/brewput/brewput/internal/measure/lockwatch"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Why is a why experiment on one benchmark on CPUs, its locks watched:
// each lock site's critical sections made longer in turn, and the control
// adding as much before every lock.
type Why struct {
	CPUs int
	studyjob.Experiment
}

// ManyMatchError is a pattern that matched more than the one benchmark
// explained.
type ManyMatchError struct{ Names []string }

func (e *ManyMatchError) Error() string {
	return fmt.Sprintf("matches %d benchmarks (%s); name one", len(e.Names), strings.Join(e.Names, ", "))
}

// NoLocks says a benchmark took no lock while its timer ran.
type NoLocks struct{ Point results.Point }

func (e *NoLocks) Error() string {
	if e.Point.Ops < 2*lockwatch.SampleEvery-1 {
		return fmt.Sprintf("%s: watching saw no sync.Mutex or RWMutex taken in its %s (it samples about one lock in %d): run it longer (-benchtime) to know",
			e.Point.Bench.Name, format.Count(int(e.Point.Ops), "operation"), lockwatch.SampleEvery)
	}
	return fmt.Sprintf("%s took no sync.Mutex or RWMutex while its timer ran (%s on %s): no lock limits it",
		e.Point.Bench.Name, format.Rate(e.Point.Throughput, e.Point.Unit), format.Count(e.Point.CPUs, "CPU"))
}

// Why runs w on b's one benchmark, as studyjob's Program.Why runs a
// variant.
func (b *Built) Why(ctx context.Context, w Why, log io.Writer) (*why.Stretches, error) {
	if !b.cfg.Locks {
		return nil, errors.New("why needs the test binary built with Config.Locks")
	}
	run := func(what, stretch string) (results.Point, error) {
		start := time.Now()
		pt, err := sweep.Quietly(ctx, w.Retry, func(ctx context.Context) (results.Point, error) {
			res, err := b.RunStretched(ctx, w.CPUs, stretch)
			switch {
			case err != nil:
				return results.Point{}, err
			case len(res.Failures) > 0:
				return results.Point{}, fmt.Errorf("%v", res.Failures[0])
			case len(res.Points) != 1:
				var names []string
				for _, p := range res.Points {
					names = append(names, p.Bench.Name)
				}
				return results.Point{}, oneMatch(names, b.cfg.bench(), b.paths())
			}
			return res.Points[0], nil
		}, func(pt results.Point, attempt int, waited time.Duration, quiet bool) {
			format.Lines(log, "  ")(fmt.Sprintf("%s: disturbed (%s): measuring again after waiting %v for a quiet machine, attempt %d of %d",
				what, pt.Interference(), waited.Round(100*time.Millisecond), attempt+1, w.Retry.Attempts))
		})
		if ctx.Err() != nil {
			return pt, ctx.Err()
		}
		if err == nil {
			format.Lines(log, "  ")(fmt.Sprintf("%s: %s (%.1f s)", what, format.Rate(pt.Throughput, pt.Unit), time.Since(start).Seconds()))
		}
		return pt, err
	}
	if err := b.one(ctx, w.CPUs); err != nil {
		return nil, err
	}
	start := w.Begin(log, fmt.Sprintf("%s on %s", b.cfg.bench(), format.Count(w.CPUs, "CPU")), "")
	began := time.Now()
	first, err := run("as it is", lockwatch.NoStretch)
	if err != nil {
		return nil, err
	}
	if len(first.Bench.Locks) == 0 {
		return nil, &NoLocks{Point: first}
	}
	perRun := time.Since(began)
	sites := maps.Clone(b.seen) // the stretch target of each lock group seen so far
	s := why.PlanStretches(first.Bench.Pkg, w.Frac, first)
	s.Base = append(s.Base, first)
	s.HoldsTimeStretch = true // a sampled hold's clock starts before a stretch's spin
	uses := 0.0
	for _, m := range first.Bench.Locks {
		uses += float64(m.Uses)
	}
	// The control's time goes before every lock: as much in all.
	s.Control.Extra = why.Nanos(float64(s.Extra) * float64(first.Ops) / uses)
	s.Control.Per = "a lock taken"
	// A site too little held and used cannot queue the others, and its
	// interval would keep every round coming: left out.
	const minShare, minUses = 0.01, 0.01
	var specs, left []string
	kept := s.Experiments[:0]
	for _, e := range s.Experiments {
		if e.Share < minShare && e.UsesPerOp < minUses {
			left = append(left, fmt.Sprintf("%s (%s of the time, %.3f uses an op)", e.Name, format.Percent(e.Share, 2), e.UsesPerOp))
			continue
		}
		if sites[e.Group] == "" {
			continue
		}
		if e.Extra <= 0 {
			left = append(left, fmt.Sprintf("%s (nothing to add)", e.Name))
			continue
		}
		kept = append(kept, e)
		specs = append(specs, fmt.Sprintf("%.2f %s", float64(e.Extra), sites[e.Group]))
	}
	s.Experiments = kept
	if len(left) > 0 {
		format.Lines(log, "")(fmt.Sprintf("left out (a part holding or waiting for less than %s of the workers' time and used less than once in %.0f operations cannot queue the others): %s",
			format.Percent(minShare, 0), 1/minUses, strings.Join(left, "; ")))
	}
	control := fmt.Sprintf("%.2f outside", float64(s.Control.Extra))
	err = w.Rounds(s, start, perRun, log, func(i int) (results.Point, error) {
		switch i {
		case studyjob.AsItIs:
			return run("as it is", lockwatch.NoStretch)
		case studyjob.TheControl:
			return run(fmt.Sprintf("control, %v before every lock", s.Control.Extra), control)
		}
		return run(s.Experiments[i].Name, specs[i])
	})
	return s, err
}

// one checks that the pattern matches one benchmark by a run of one
// iteration of each it matches, as sub-benchmarks are named only then.
func (b *Built) one(ctx context.Context, n int) error {
	cfg := b.cfg
	cfg.Locks, cfg.Stretch, cfg.Benchtime, cfg.Count, cfg.Log = false, "", "1x", 1, nil
	var names []string
	for _, p := range b.pkgs {
		points, failures, err := runOne(ctx, cfg, p, n, b.tmp, nil)
		if err != nil {
			return err
		}
		if len(failures) > 0 {
			return fmt.Errorf("%v", failures[0])
		}
		for _, pt := range points {
			names = append(names, pt.Bench.Name)
		}
	}
	return oneMatch(names, b.cfg.bench(), b.paths())
}

// paths are the packages' import paths.
func (b *Built) paths() []string {
	var out []string
	for _, p := range b.pkgs {
		out = append(out, p.path)
	}
	return slices.Clip(out)
}
