package study

import (
	"context"
	"fmt"
	"io"

	"github.com/brewput/brewput/explain/why"
	"github.com/brewput/brewput/internal/format"
	kit "github.com/brewput/brewput/measure/study"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Why is a why experiment: Variant under Load, each part stretched by
// Frac in its turn, for Count rounds, or up to MaxCount while undecided.
type Why struct {
	Variant         string
	Load            sweep.Load
	Frac            float64
	Count, MaxCount int
	Retry           sweep.Retry
}

// Why runs w: a first run as it is, which plans the stretches, then
// rounds of it as it is and each stretch, telling log its progress. It
// returns what it measured, also when it stops early (nil before the
// first run).
func (p *Program) Why(ctx context.Context, w Why, log io.Writer) (*why.Stretches, error) {
	run := func(what string, st *kit.Stretch) (results.Point, error) {
		pt, err := p.point(ctx, kit.Request{Variant: w.Variant, Load: w.Load, Stretch: st}, w.Retry, w.Variant+", "+what, log)
		if err == nil {
			fmt.Fprintf(log, "  %s: %s\n", what, format.Rate(pt.Throughput, pt.Unit))
		}
		return pt, err
	}
	fmt.Fprintf(log, "why %s on %d CPUs: %d rounds or more, up to %d, of %v a run\n", w.Variant, w.Load.CPUs, w.Count, w.MaxCount, w.Load.Warmup+w.Load.Dur)
	fmt.Fprintln(log, "round 1")
	first, err := run("as it is", &kit.Stretch{})
	if err != nil {
		return nil, err
	}
	s := why.PlanStretches(p.Name, w.Frac, first)
	s.Base = append(s.Base, first)
	specs := make([]*kit.Stretch, len(s.Experiments))
	for i, e := range s.Experiments {
		switch {
		case e.Group == "":
			specs[i] = &kit.Stretch{Outside: true, Extra: e.Extra}
		case e.Kind == "chan":
			specs[i] = &kit.Stretch{Group: e.Group, Frac: w.Frac}
		default:
			specs[i] = &kit.Stretch{Group: e.Group, Extra: e.Extra}
		}
	}
	err = Rounds(s, w.Count, w.MaxCount, log, func(i int) (results.Point, error) {
		if i < 0 {
			return run("as it is", &kit.Stretch{})
		}
		return run(s.Experiments[i].Name, specs[i])
	})
	return s, err
}

// Rounds runs the experiments of s, planned from its first run as it is
// (s.Base[0]), in rounds: from the second, each opens with a run as it
// is; each runs every experiment in turn. After count rounds it stops
// when every experiment is decided, else at maxCount. run measures one
// run: experiment i, or the program as it is for i < 0. A round cut short
// is dropped whole; the error is run's.
func Rounds(s *why.Stretches, count, maxCount int, log io.Writer, run func(i int) (results.Point, error)) error {
	for round := 1; round <= maxCount; round++ {
		if round > 1 {
			fmt.Fprintf(log, "round %d\n", round)
			pt, err := run(-1)
			if err != nil {
				return err
			}
			s.Base = append(s.Base, pt)
		}
		for i := range s.Experiments {
			pt, err := run(i)
			if err != nil {
				s.Base = s.Base[:round-1]
				for j := range s.Experiments {
					s.Experiments[j].Points = s.Experiments[j].Points[:min(len(s.Experiments[j].Points), round-1)]
				}
				return err
			}
			s.Experiments[i].Points = append(s.Experiments[i].Points, pt)
		}
		if round >= count {
			s.Judge()
			if s.Decided() {
				break
			}
		}
	}
	return nil
}
