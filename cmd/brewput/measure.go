package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/brewput/brewput/profile"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sweep"
)

// measure runs the study's points one by one, each in a child process, in
// rounds when --count asks for repetitions (round-robin keeps a slow spell
// of the machine from landing on one configuration). It returns what it
// measured, also when it stops early on an error or an interruption. With
// --profile it makes the folder first, and says at the end where the
// profiles went.
func (e *env) measure(ctx context.Context, st *study) ([]results.Point, error) {
	runner, err := e.runner()
	if err != nil {
		return nil, err
	}
	if st.profile != "" {
		if err := os.MkdirAll(st.profile, 0o755); err != nil {
			return nil, failure{fmt.Errorf("--profile: create %s: %w", st.profile, err)}
		}
	}
	total := st.total()
	perPoint := st.specs[0].Warmup + st.specs[0].Dur
	fmt.Fprintf(e.stderr, "measuring %s, about %v\n", plural(total, "point"), (time.Duration(total) * perPoint).Round(100*time.Millisecond))
	prog := newProgress(e.stderr, total)
	points, err := measureAll(ctx, st, runner, prog)
	prog.finish()
	if st.profile != "" {
		tellProfiles(e, st.profile, points)
	}
	return points, err
}

// measureAll measures every point of the study, in rounds, until the end
// or the first error.
func measureAll(ctx context.Context, st *study, runner sweep.Runner, prog *progress) ([]results.Point, error) {
	var points []results.Point
	for rep := 1; rep <= st.count; rep++ {
		for _, s := range st.specs {
			prog.start(len(points), s, rep, st.count)
			s.Profile = st.profileBase(s, rep)
			p, err := runner.Run(ctx, s)
			if err != nil {
				return points, err
			}
			if st.count > 1 {
				p.Rep = rep
			}
			points = append(points, p)
			prog.done(len(points), p)
		}
	}
	return points, nil
}

// tellProfiles says, on stderr, where the points' profiles are and how to
// open them.
func tellProfiles(e *env, dir string, points []results.Point) {
	var last string
	n := 0
	for _, p := range points {
		if p.Profile != "" {
			last = p.Profile
			n++
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(e.stderr, "profiles of %s in %s (trace, cpu, block and mutex for each); open them with\n", plural(n, "point"), dir)
	fmt.Fprintf(e.stderr, "  go tool trace %s\n", last+profile.TraceExt)
	fmt.Fprintf(e.stderr, "  go tool pprof -top %s\n", last+profile.BlockExt)
}

// measureError turns how measuring ended into the command's error: none,
// an interruption (exit 130) or a failure (exit 1), saying how far it got.
func measureError(err error, done, total int) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return interrupted{fmt.Errorf("interrupted after %d of %d points; kept what was measured", done, total)}
	case done == 0:
		return failure{err}
	}
	return failure{fmt.Errorf("after %d of %d points: %w", done, total, err)}
}

// runner returns the Runner that measures each point in a child process.
func (e *env) runner() (sweep.Runner, error) {
	if e.child.path != "" {
		return sweep.Runner{Path: e.child.path, Args: e.child.args, Env: e.child.env}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return sweep.Runner{}, failure{fmt.Errorf("find brewput's own executable to measure in a child process: %w", err)}
	}
	return sweep.Runner{Path: self, Args: []string{"point"}}, nil
}
