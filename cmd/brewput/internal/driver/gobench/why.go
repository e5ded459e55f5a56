package gobench

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/studyjob"
	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/lockwatch"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// Why is a why experiment on one benchmark on CPUs, its locks watched:
// each lock site's critical sections made longer in turn, and the control
// adding as much before every lock.
type Why struct {
	CPUs int
	studyjob.Experiment
}

// ManyMatchError is a pattern that matched more than one benchmark.
type ManyMatchError struct{ Names []string }

func (e *ManyMatchError) Error() string {
	return fmt.Sprintf("matches %d benchmarks (%s); name one", len(e.Names), strings.Join(e.Names, ", "))
}

// NoLocks says a benchmark took no lock while its timer ran, or, where
// Rare names them, none often enough to queue its workers.
type NoLocks struct {
	Point results.Point
	Rare  []string
}

func (e *NoLocks) Error() string {
	return text.NoLocks(e.Point, e.Rare, lockwatch.SampleEvery)
}

// Why runs w on b's one benchmark, as studyjob's Program.Why runs a variant.
func (b *Built) Why(ctx context.Context, w Why, log io.Writer) (*why.Stretches, error) {
	if !b.cfg.Locks {
		return nil, errors.New("why needs the test binary built with Config.Locks")
	}
	// Each run is tagged with what it stretched (results.Benchmark.Stretch),
	// for a results file to keep the experiment.
	run := func(what, part string, ns float64, stretch string) (results.Point, error) {
		p, err := w.Measure(ctx, log, what, func(ctx context.Context) (results.Point, error) {
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
		})
		if p.Bench != nil {
			p.Bench.Stretch, p.Bench.StretchNs = part, ns
		}
		return p, err
	}
	if err := b.one(ctx, w.CPUs); err != nil {
		return nil, err
	}
	start := w.Begin(log, fmt.Sprintf("%s on %s", b.cfg.bench(), format.Count(w.CPUs, "CPU")), "")
	began := time.Now()
	first, err := run("as it is", results.StretchAsIs, 0, lockwatch.NoStretch)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(first.Bench.Locks, func(m results.Machine) bool { return !results.IsChan(m.Kind) }) {
		return nil, &NoLocks{Point: first} // none, or channels', which no stretch lengthens
	}
	perRun := time.Since(began)
	sites := maps.Clone(b.seen) // the stretch target of each lock group seen so far
	s := planBench(first, w.Frac)
	// A site too little held and used cannot queue the others, and its
	// interval would keep every round coming: left out.
	const minShare, minUses = 0.01, 0.01
	var specs, left []string
	kept := s.Experiments[:0]
	for _, e := range s.Experiments {
		if e.Share < minShare && e.UsesPerOp < minUses {
			left = append(left, text.WhyRare(e.Name, e.Share, e.UsesPerOp))
			continue
		}
		if sites[e.Group] == "" {
			continue
		}
		if e.Extra <= 0 {
			left = append(left, text.WhyNothingToAdd(e.Name))
			continue
		}
		kept = append(kept, e)
		specs = append(specs, fmt.Sprintf("%.2f %s", float64(e.Extra), sites[e.Group]))
	}
	s.Experiments = kept
	if len(kept) == 0 && len(left) > 0 {
		return nil, &NoLocks{Point: first, Rare: left}
	}
	if len(left) > 0 {
		format.Lines(log, "")(text.WhyLeftOut(minShare, minUses, left))
	}
	control := fmt.Sprintf("%.2f outside", float64(s.Control.Extra))
	err = w.Rounds(s, start, perRun, log, func(i int) (results.Point, error) {
		switch i {
		case studyjob.AsItIs:
			return run("as it is", results.StretchAsIs, 0, lockwatch.NoStretch)
		case studyjob.TheControl:
			return run(text.WhyLockControl(s.Control.Extra), results.StretchControl, float64(s.Control.Extra), control)
		}
		e := s.Experiments[i]
		return run(e.Name, e.Group, float64(e.Extra), specs[i])
	})
	return s, err
}

// planBench plans a why of a watched benchmark from its first run as it
// is, first, adding frac of an operation.
func planBench(first results.Point, frac float64) *why.Stretches {
	s := why.PlanStretches(first.Bench.Pkg, frac, first)
	s.Base = append(s.Base, first)
	s.HoldsTimeStretch = true // a sampled hold's clock starts before a stretch's spin
	s.Benchmark = true
	// The control's time goes before every lock: as much in all.
	s.Control.Extra = why.Nanos(float64(s.Extra) * float64(first.Ops) / locksTaken(first))
	s.Control.Per = "a lock taken"
	return s
}

// locksTaken is how many locks p's run took, its groups' uses.
func locksTaken(p results.Point) float64 {
	uses := 0.0
	for _, m := range p.Bench.Locks {
		uses += float64(m.Uses)
	}
	return uses
}

// StretchPoints are the runs of s, a why of a benchmark, as a results
// file keeps them: as it is, the control and each part, round by round
// (Rep, from 1).
func StretchPoints(s *why.Stretches) []results.Point {
	var out []results.Point
	for r := range s.Base {
		runs := [][]results.Point{s.Base, s.Control.Points}
		for _, e := range s.Experiments {
			runs = append(runs, e.Points)
		}
		for _, ps := range runs {
			if r < len(ps) {
				p := ps[r]
				p.Rep = r + 1
				out = append(out, p)
			}
		}
	}
	return out
}

// WhyFrom is the why experiment on one benchmark that a results file
// kept (StretchPoints), bench matching its name where given: planned
// again from its first run as it is, with the stretches it ran, its
// rounds those every run of which was kept.
func WhyFrom(points []results.Point, bench *regexp.Regexp) (*why.Stretches, error) {
	var name string
	byPart := map[string][]results.Point{}
	for _, p := range points {
		if p.Kind != results.KindBench || p.Source == results.SourceModel || p.Bench.Stretch == "" ||
			bench != nil && !bench.MatchString(p.Mode) {
			continue
		}
		if name != "" && p.Bench.Name != name {
			return nil, fmt.Errorf("why experiments of %s and %s; give -bench to choose one", name, p.Bench.Name)
		}
		name = p.Bench.Name
		byPart[p.Bench.Stretch] = append(byPart[p.Bench.Stretch], p)
	}
	for part := range byPart {
		slices.SortStableFunc(byPart[part], func(a, b results.Point) int { return a.Rep - b.Rep })
	}
	base, control := byPart[results.StretchAsIs], byPart[results.StretchControl]
	if len(base) == 0 {
		return nil, ErrNoExperiment
	}
	first := base[0]
	if len(first.Bench.Locks) == 0 {
		return nil, &NoLocks{Point: first}
	}
	if len(control) == 0 || control[0].Bench.StretchNs <= 0 || first.Ops <= 0 {
		return nil, fmt.Errorf("%s: a run as it is alone, no round of the experiment (a why that stopped before its rounds)", name)
	}
	// The control spun s.Extra an operation, over the locks taken: the
	// share of an operation it was is the stretch asked, to the millionth
	// (--stretch's share, so that the time shown added is the same to the
	// nanosecond as the first answer's, not a rounding error away).
	s := planBench(first, 0.5)
	frac := control[0].Bench.StretchNs * locksTaken(first) / float64(first.Ops) / float64(s.OpTime)
	frac = math.Round(frac*1e6) / 1e6
	s = planBench(first, frac)
	s.Control.Extra = why.Nanos(control[0].Bench.StretchNs)
	s.Base, s.Control.Points = base, control
	rounds := min(len(base), len(control))
	kept := s.Experiments[:0]
	for _, e := range s.Experiments {
		if ps := byPart[e.Group]; len(ps) > 0 {
			e.Extra, e.Points = why.Nanos(ps[0].Bench.StretchNs), ps
			rounds = min(rounds, len(ps))
			kept = append(kept, e)
		}
	}
	s.Experiments = kept
	s.Base, s.Control.Points = s.Base[:rounds], s.Control.Points[:rounds]
	for i := range s.Experiments {
		s.Experiments[i].Points = s.Experiments[i].Points[:rounds]
	}
	return s, nil
}

// ErrNoExperiment says a results file holds no why experiment.
var ErrNoExperiment = errors.New("no why experiment")

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

func (b *Built) paths() []string { return collect.Mapped(b.pkgs, func(p pkg) string { return p.path }) }

// One checks, before anything is built, that the first part of cfg.Bench
// matches one top-level benchmark of the packages' test files; which
// sub-benchmarks the rest matches is known only once they run (Built.Why).
func One(ctx context.Context, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	names, paths, err := Benchmarks(ctx, cfg)
	if err != nil {
		return err
	}
	firsts := firstParts(cfg.bench())
	names = slices.DeleteFunc(names, func(name string) bool {
		return !slices.ContainsFunc(firsts, func(re *regexp.Regexp) bool { return re.MatchString(name) })
	})
	return oneMatch(names, cfg.bench(), paths)
}

// Benchmarks are the top-level benchmarks the packages' test files
// declare, and their import paths.
func Benchmarks(ctx context.Context, cfg Config) (names, paths []string, err error) {
	pkgs, err := list(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pkgs {
		paths = append(paths, p.ImportPath)
		names = append(names, topBenchmarks(p.Dir, slices.Concat(p.TestGoFiles, p.XTestGoFiles))...)
	}
	return names, paths, nil
}

// oneMatch is nil where names, those bench matched in pkgs, are one.
func oneMatch(names []string, bench string, pkgs []string) error {
	switch {
	case len(names) == 0:
		return &NoMatchError{Bench: bench, Packages: pkgs}
	case len(names) > 1:
		return &ManyMatchError{Names: names}
	}
	return nil
}

// topBenchmarks are the top-level benchmarks the test files in dir
// declare; a file that does not parse declares none (the build says why).
func topBenchmarks(dir string, files []string) []string {
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv == nil && isBenchmark(fn) {
				out = append(out, fn.Name.Name)
			}
		}
	}
	return out
}

// isBenchmark says whether go test runs fn as a benchmark: Benchmark or
// BenchmarkX (X not lower-case), of one parameter *B and no result.
func isBenchmark(fn *ast.FuncDecl) bool {
	rest, ok := strings.CutPrefix(fn.Name.Name, "Benchmark")
	if !ok {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && unicode.IsLower(r) {
		return false
	}
	t := fn.Type
	if t.Results != nil && len(t.Results.List) > 0 || t.Params == nil || len(t.Params.List) != 1 || len(t.Params.List[0].Names) > 1 {
		return false
	}
	star, ok := t.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *ast.Ident:
		return x.Name == "B"
	case *ast.SelectorExpr:
		return x.Sel.Name == "B"
	}
	return false
}

// firstParts are the first part of each alternative of pattern, split as
// testing splits it ("A/x|B" matches A's and B's).
func firstParts(pattern string) []*regexp.Regexp {
	var out []*regexp.Regexp
	brackets, parens, first, start := 0, 0, true, 0
	add := func(part string) {
		if re, err := regexp.Compile(part); err == nil {
			out = append(out, re)
		}
	}
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '[':
			brackets++
		case ']':
			brackets = max(brackets-1, 0)
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/':
			if brackets == 0 && parens == 0 && first {
				add(pattern[start:i])
				first = false
			}
		case '|':
			if brackets == 0 && parens == 0 {
				if first {
					add(pattern[start:i])
				}
				first, start = true, i+1
			}
		}
	}
	if first {
		add(pattern[start:])
	}
	return out
}
