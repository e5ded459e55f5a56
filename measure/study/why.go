package study

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/explain/why"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/internal/sweep"
	"github.com/brewput/brewput/results"
)

// whyFlags say which point to explain and how hard to try.
type whyFlags struct {
	variant, cpus, format string
	frac                  float64
	par, count, maxCount  int
	dur, warmup           cliflag.Duration
}

func (c *cli) whyCmd() *cobra.Command {
	f := &whyFlags{dur: cliflag.Duration(300 * time.Millisecond), warmup: cliflag.Duration(100 * time.Millisecond)}
	cmd := &cobra.Command{
		Use:   "why",
		Short: "Find what limits a variant on N CPUs, by experiment: stretch each lock, channel and the work outside them in turn",
		Long: `why finds what limits one variant on one CPU count by experiment, as Coz
(Curtsinger and Berger, SOSP 2015) does: each group of the variant's meters
(its locks, the shards of one design together, its channels) is stretched in
turn, for one run — a lock held --stretch longer each time (a tenth of its mean
section, as the variant as it is measured it), a channel's handoff --stretch
slower — and so is the work outside every meter, each operation --stretch of
that work's mean longer. Each round runs the variant as it is and each
stretch, each point in a child process restricted to the CPUs; the cost of a
stretch is the median over the rounds of the throughput it lost against the
round's run as it is, with its 95 % interval (benchmath).

A part limits the variant where its cost lies above what as much more work
would cost done in parallel: its share of the workers' time times the
stretch. Rounds go on from --count until every interval lies on one side of
that, or --max-count. It answers, for instance, "The cache mutex limits this:
holding it 10 % longer cost 9.1 % [8.2, 9.9] of the throughput, more than the
4.9 % …", or "No single lock limits this: …": never a limit without its
experiment.`,
		Example: fmt.Sprintf("  %s why --variant %s --cpus 2", c.study.Name, c.study.Variants[0].Name),
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, n, l, err := f.check(c.study)
			if err != nil {
				return err
			}
			s, runErr := c.why(cmd.Context(), v, n, l, f)
			if s == nil || len(s.Base) == 0 {
				return runErr
			}
			s.Judge()
			write := s.WriteTable
			if f.format == "json" {
				write = s.WriteJSON
			}
			if err := write(c.stdout); err != nil {
				return failure{Err: err}
			}
			return exitcode.Ended(runErr, len(s.Base), f.count, "rounds", "what was measured")
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.variant, "variant", "", "the variant to explain (see list)")
	fs.StringVar(&f.cpus, "cpus", strconv.Itoa(runtime.NumCPU()), "the CPU count to explain it on, one number")
	fs.Float64Var(&f.frac, "stretch", 0.1, "how much longer each part is made in its turn: 0.1 is 10 %")
	fs.IntVar(&f.count, "count", compare.RunsForInterval(), "rounds at least: the variant as it is and each stretch once a round")
	fs.IntVar(&f.maxCount, "max-count", 20, "rounds at most, while an experiment is undecided")
	fs.IntVar(&f.par, "par", 0, "workers at once; 0 means one per CPU")
	fs.Var(&f.dur, "dur", "measured duration of each run")
	fs.Var(&f.warmup, "warmup", "uncounted warm-up before each run")
	fs.StringVar(&f.format, "format", "table", "output format: table or json")
	return cmd
}

// check checks every flag before anything is measured.
func (f *whyFlags) check(s Study) (string, int, sweep.Load, error) {
	var l sweep.Load
	if f.variant == "" {
		return "", 0, l, fmt.Errorf("--variant: give the variant to explain; accepted: %s", joinNames(s))
	}
	if _, err := s.Variant(f.variant); err != nil {
		return "", 0, l, fmt.Errorf("--variant: %q: not a variant; accepted: %s", f.variant, joinNames(s))
	}
	n, err := strconv.Atoi(f.cpus)
	switch {
	case err != nil || n < 1:
		return "", 0, l, fmt.Errorf("--cpus %q: want one CPU count, such as 2", f.cpus)
	case n > runtime.NumCPU():
		return "", 0, l, fmt.Errorf("--cpus %d: this machine has %d CPUs", n, runtime.NumCPU())
	case !(f.frac > 0 && f.frac <= 1):
		return "", 0, l, fmt.Errorf("--stretch %v: want a fraction above 0 and at most 1, such as 0.1 for 10 %% longer", f.frac)
	case f.count < 1:
		return "", 0, l, fmt.Errorf("--count %d: want 1 or more rounds (%d for intervals)", f.count, compare.RunsForInterval())
	case f.maxCount < f.count:
		return "", 0, l, fmt.Errorf("--max-count %d: want at least --count, %d", f.maxCount, f.count)
	case f.par < 0:
		return "", 0, l, fmt.Errorf("--par %d: want 0 (one per CPU) or a positive number of workers", f.par)
	case f.dur <= 0:
		return "", 0, l, fmt.Errorf("--dur %v: want a positive duration such as 300ms", time.Duration(f.dur))
	case f.warmup < 0:
		return "", 0, l, fmt.Errorf("--warmup %v: want zero or a positive duration such as 100ms", time.Duration(f.warmup))
	case f.format != "table" && f.format != "json":
		return "", 0, l, fmt.Errorf("--format %q: want table or json", f.format)
	}
	l = sweep.Load{CPUs: n, Par: f.par, Dur: time.Duration(f.dur), Warmup: time.Duration(f.warmup)}
	return f.variant, n, l, l.Validate()
}

func joinNames(s Study) string {
	out := ""
	for i, n := range s.names() {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// why runs the experiments on variant on n CPUs: a first run as it is,
// from which the stretches are planned, then rounds of the variant as it
// is and each stretch, at least f.count and, while an experiment is
// undecided, up to f.maxCount. It returns what it measured, also when it
// stops early (nil before the first run).
func (c *cli) why(ctx context.Context, variant string, n int, l sweep.Load, f *whyFlags) (*why.Stretches, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, failure{Err: fmt.Errorf("find this program to measure in a child process: %w", err)}
	}
	run := func(what string, st *stretchSpec) (results.Point, error) {
		spec := childSpec{Variant: variant, Load: l, Stretch: st}
		p, err := sweep.Quietly(ctx, sweep.DefaultRetry(), func(ctx context.Context) (results.Point, error) {
			return sweep.RunChild(ctx, self, []string{"point"}, nil, n, spec)
		}, func(p results.Point, attempt int, waited time.Duration, quiet bool) {
			fmt.Fprintf(c.stderr, "%s: disturbed (%s): measuring again after waiting %v for a quiet machine, attempt %d of %d\n",
				what, p.Interference(), waited.Round(100*time.Millisecond), attempt+1, sweep.DefaultRetry().Attempts)
		})
		if err != nil {
			if ctx.Err() != nil {
				return p, ctx.Err()
			}
			return p, fmt.Errorf("%s, %s: %w", variant, what, err)
		}
		fmt.Fprintf(c.stderr, "  %s: %s\n", what, format.Rate(p.Throughput, p.Unit))
		return p, nil
	}
	fmt.Fprintf(c.stderr, "why %s on %d CPUs: %d rounds or more, up to %d, of %v a run\n", variant, n, f.count, f.maxCount, l.Warmup+l.Dur)
	fmt.Fprintln(c.stderr, "round 1")
	first, err := run("as it is", &stretchSpec{})
	if err != nil {
		return nil, err
	}
	s := why.PlanStretches(c.study.Name, f.frac, first)
	s.Base = append(s.Base, first)
	specs := make([]*stretchSpec, len(s.Experiments))
	for i, e := range s.Experiments {
		switch {
		case e.Group == "":
			specs[i] = &stretchSpec{Outside: true, Extra: e.Extra}
		case e.Kind == "chan":
			specs[i] = &stretchSpec{Group: e.Group, Frac: f.frac}
		default:
			specs[i] = &stretchSpec{Group: e.Group, Extra: e.Extra}
		}
	}
	for round := 1; round <= f.maxCount; round++ {
		if round > 1 {
			fmt.Fprintf(c.stderr, "round %d\n", round)
			p, err := run("as it is", &stretchSpec{})
			if err != nil {
				return s, err
			}
			s.Base = append(s.Base, p)
		}
		for i := range s.Experiments {
			p, err := run(s.Experiments[i].Name, specs[i])
			if err != nil {
				// A round counts whole: the cut one is dropped.
				s.Base = s.Base[:round-1]
				for j := range s.Experiments {
					s.Experiments[j].Points = s.Experiments[j].Points[:min(len(s.Experiments[j].Points), round-1)]
				}
				return s, err
			}
			s.Experiments[i].Points = append(s.Experiments[i].Points, p)
		}
		if round >= f.count {
			s.Judge()
			if s.Decided() {
				break
			}
		}
	}
	return s, nil
}
