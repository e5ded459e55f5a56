package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/gobench"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/internal/base/exitcode"
	textfmt "github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/lockwatch"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

func newWhyCmd(e *env) *cobra.Command {
	sf := &modelcli.StudyFlags{}
	mf := &modelcli.ModelFlags{Options: predict.Options{Measure: e.calibrateCosts}}
	var mode, format string
	bw := &benchWhyFlags{}
	cmd := goTestCommand("why [PACKAGE -bench REGEXP | --from FILE | --mode NAME] [flags] [-- go test flags]",
		"Measure what limits a Go benchmark or a shop's point, on real CPUs",
		func(cmd *cobra.Command, pkgs, goFlags []string) error {
			begun := time.Now()
			fs := cmd.Flags()
			if bw.w.Within < 0 {
				return fmt.Errorf("--within %v: want a positive duration such as 3m, or 0 for no limit", bw.w.Within)
			}
			switch {
			case bw.from != "":
				return bw.runFrom(e, fs, pkgs, goFlags, mode, format)
			case mode != "" && bw.out != "":
				return fmt.Errorf("--out %s: keeps a benchmark's why (a package and -bench); brewput run --out keeps the shop's runs", bw.out)
			}
			if len(pkgs) > 0 || fs.Changed("bench") {
				switch {
				case mode != "" && len(pkgs) == 0:
					return fmt.Errorf("--mode and -bench: give a mode, or a package and -bench REGEXP, not both")
				case mode != "":
					return fmt.Errorf("--mode %s takes no arguments (got %s): give a mode, or a package and -bench REGEXP instead", mode, strings.Join(pkgs, " "))
				}
				return bw.run(cmd.Context(), e, fs, pkgs, goFlags, sf.Count, format)
			} else if len(goFlags) > 0 {
				return fmt.Errorf("go test flags after --: give them with a package and -bench")
			}
			switch {
			case mode == "":
				return fmt.Errorf("give --mode NAME (see brewput list), or a package and -bench REGEXP, to explain")
			case mf.File != "":
				return fmt.Errorf("--model: why measures the shop's modes on real CPUs; for a YAML system, brewput advise --model %s gives its profile in the model", mf.File)
			case sf.Count < 2:
				return fmt.Errorf("--count %d: want 2 or more runs of each experiment (6 for a verdict)", sf.Count)
			}
			s, err := sf.PlanOne(cmd.Flags(), runtime.NumCPU(), mode, "why", 2)
			if err != nil {
				return err
			}
			cfg, err := predict.WhyConfig(s, mf.Seed)
			if err != nil {
				return err
			}
			pr, err := predict.Resolve(cmd.Context(), mf.PredictOptions(cmd.Flags()), e.tell)
			if err != nil {
				return err
			}
			causal, err := pr.CausalProfile(cmd.Context(), cfg)
			if cmd.Context().Err() != nil {
				return exitcode.Interruption{Err: fmt.Errorf("interrupted while simulating the causal profile; nothing measured")}
			}
			if err != nil {
				return failure{Err: err}
			}
			study, err := why.Plan(causal, s, runtime.NumCPU())
			if study != nil {
				study.Label = text.ChangeText
			}
			if err != nil {
				return failure{Err: err}
			}
			study.Calibration = costsLine(pr)
			runner, err := e.runner()
			if err != nil {
				return err
			}
			// --within counts the model's causal profile in.
			study.Within, study.Since = bw.w.Within, begun
			text.WriteRounds(e.stderr, study.Rounds(sf.Count))
			runErr := study.Run(cmd.Context(), sf.Count, runner.Run, e.stderr)
			study.Judge(compare.Options{})
			write := func(w io.Writer) error { return text.WriteReliefs(w, study.Reliefs()) }
			if format == "json" {
				write = study.WriteJSON
			}
			if err := write(e.stdout); err != nil {
				return failure{Err: err}
			}
			if stoppedLate(e, format, runErr) {
				return nil
			}
			return exitcode.Measured(runErr, len(study.BasePoints), sf.Count)
		})
	// --help lists a benchmark's flags; the shop's are model's.
	cmd.Annotations = map[string]string{flagsOf: "model", flagsWhen: "with --mode"}
	sf.RegisterOne(cmd.Flags(), 500*time.Millisecond, "the CPU count to explain,\none number", "dur", "burn", "count")
	modelcli.SetDefault(cmd.Flags(), "count", "6", "rounds of the run as it is, the control and each stretch\n(with --mode, of the point and each relief); 6 or more for a verdict")
	cmd.Flags().StringVar(&mode, "mode", "", "instead of a package: the shop's mode to explain\n(see brewput list)")
	mf.Register(cmd.Flags())
	cmd.Flags().Lookup("model").Hidden = true // why measures the shop's modes, not YAML systems
	formatVar(cmd.Flags(), &format, "")
	bw.register(cmd.Flags())
	return cmd
}

// costsLine names the costs pr's model rests on; "" under fifo.
func costsLine(pr predict.Prediction) string {
	if pr.Cal == nil {
		return ""
	}
	return text.CostsLine(*pr.Cal)
}

// benchWhyFlags are why's flags for a package's benchmark.
type benchWhyFlags struct {
	bench, benchtime, noisy, out, from string
	w                                  gobench.Why
}

func (f *benchWhyFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.bench, "bench", "", "with a package: the benchmark to explain\n(a regular expression matching one, as go test -bench)")
	fs.StringVar(&f.benchtime, "benchtime", "500ms", "with a package: a run's length,\nsuch as 1s or 100000x (as go test -benchtime)")
	fs.Float64Var(&f.w.Frac, "stretch", why.DefaultFrac, "with a package: a lock's stretch\n(the time added per operation to each lock in its turn, and outside every lock as the control, as a share of an operation: 0.5 is half of one)")
	fs.IntVar(&f.w.MaxCount, "max-count", 20, "with a package: rounds at most,\nwhile an experiment is undecided")
	fs.DurationVar(&f.w.Within, "within", 3*time.Minute, "longest the whole command may take\n(its build included; it stops, undecided if it must, rather than start a round that would not end in it; 0: no limit)")
	modelcli.RegisterNoisy(fs, &f.noisy)
	fs.StringVar(&f.out, "out", "", "with a package: also write what was measured to this results file\n(JSON Lines: each run, as it is, the control and each stretch; why --from, predict --from and bench --from read it)")
	fs.StringVar(&f.from, "from", "", "answer from this results file (why --out FILE)\ninstead of measuring")
}

// runFrom answers from a results file that why --out wrote.
func (f *benchWhyFlags) runFrom(e *env, fs *pflag.FlagSet, pkgs, goFlags []string, mode, format string) error {
	if err := measuringOnly(fs, f.from, "benchtime", "stretch", "count", "max-count", "within", "noisy", "cpus", "out"); err != nil {
		return err
	}
	switch {
	case len(pkgs)+len(goFlags) > 0:
		return fmt.Errorf("--from %s: reads what was measured; give no package or go test flags", f.from)
	case mode != "":
		return fmt.Errorf("--mode %s: --from reads a benchmark's why", mode)
	}
	match, err := benchPattern(f.bench)
	if err != nil {
		return err
	}
	points, err := e.openResults(f.from)
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	s, err := gobench.WhyFrom(points, match)
	var none *gobench.NoLocks
	switch {
	case errors.As(err, &none):
		fmt.Fprintln(e.stdout, textfmt.Wrap(none.Error()+".", textfmt.Width(e.stdout), ""))
		return nil
	case errors.Is(err, gobench.ErrNoExperiment):
		return fmt.Errorf("--from %s: no why of a benchmark%s in it; brewput why PACKAGE -bench REGEXP --out FILE keeps one", f.from, map[bool]string{true: " matching -bench", false: ""}[match != nil])
	case err != nil:
		return fmt.Errorf("--from %s: %w", f.from, err)
	}
	return writeStretches(e, s, format, nil, len(s.Base), len(s.Base))
}

// noBench is the error of a why given packages and no -bench: it names
// their benchmarks, one to try first.
func noBench(ctx context.Context, e *env, pkgs []string) error {
	names, paths, err := gobench.Benchmarks(ctx, gobench.Config{Packages: pkgs, Dir: e.dir})
	switch {
	case err != nil:
		return errors.New("-bench: give the benchmark to explain, as go test -bench names one")
	case len(names) == 0:
		return fmt.Errorf("-bench: %s declares no benchmark (func BenchmarkName(b *testing.B) in a _test.go file); why explains one", strings.Join(paths, ", "))
	}
	shown := names
	if len(names) > 4 {
		shown = append(names[:4:4], fmt.Sprintf("%d more", len(names)-4))
	}
	return fmt.Errorf("-bench: give the benchmark to explain, such as -bench '^%s$' (a sub-benchmark: '^%[1]s$/NAME'); %s declares %s",
		names[0], strings.Join(paths, ", "), strings.Join(shown, ", "))
}

// run explains the -bench benchmark of pkgs, its lock sites stretched in turn.
func (f *benchWhyFlags) run(ctx context.Context, e *env, fs *pflag.FlagSet, pkgs, goFlags []string, count int, format string) error {
	// --within is the whole command's time, its build included.
	f.w.Since = time.Now()
	cpus, _ := fs.GetString("cpus")
	n, err := strconv.Atoi(cpus)
	switch {
	case f.bench == "":
		return noBench(ctx, e, pkgs)
	case err != nil || n < 1:
		return fmt.Errorf("--cpus %q: want one CPU count, such as 2", cpus)
	case n > runtime.NumCPU():
		return fmt.Errorf("--cpus %d: this machine has %d CPUs", n, runtime.NumCPU())
	case !(f.w.Frac > 0 && f.w.Frac <= 1):
		return fmt.Errorf("--stretch %v: want a share of an operation above 0 and at most 1, such as 0.5 for half an operation", f.w.Frac)
	case count < 2:
		return fmt.Errorf("--count %d: want 2 or more rounds (6 for a verdict)", count)
	case f.w.MaxCount < count:
		return fmt.Errorf("--max-count %d: want at least --count, %d", f.w.MaxCount, count)
	}
	for _, name := range []string{"mode", "dur", "par", "rate", "burn"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s: a benchmark runs as its code says; --%s is for the shop's modes", name, name)
		}
	}
	cfg := gobench.Config{Packages: pkgs, Bench: f.bench, CPUs: []int{n}, Count: 1, Benchtime: f.benchtime, Locks: true, Log: nil, Dir: e.dir}
	if cfg.BuildFlags, cfg.TestFlags, err = gobench.SplitFlags(goFlags); err != nil {
		return fmt.Errorf("go test flags: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("-%w", err)
	}
	if note := cfg.FixedCountNote(); note != "" {
		fmt.Fprintln(e.stderr, textfmt.Wrap(note, textfmt.Width(e.stderr), "  "))
	}
	f.w.CPUs, f.w.Count = n, count
	f.w.Retry = modelcli.RetryOf(f.noisy)
	out, err := e.resultsOut(f.out, "why")
	if err != nil {
		return err
	}
	// A pattern that matches two benchmarks, or none, is refused before
	// the build.
	var many *gobench.ManyMatchError
	var noMatch *gobench.NoMatchError
	if err := gobench.One(ctx, cfg); err != nil {
		if errors.As(err, &many) || errors.As(err, &noMatch) {
			return fmt.Errorf("-bench %q: %w", f.bench, err)
		}
		return gobench.Ended(gobench.Result{}, err, nil, e.stderr)
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	e.notePlatform()
	fmt.Fprintln(e.stderr, text.BuildingWatched(pkgs))
	built, err := gobench.Build(ctx, cfg)
	if err != nil {
		var cannot *lockwatch.CannotWatch
		if errors.As(err, &cannot) {
			return err
		}
		return gobench.Ended(gobench.Result{}, err, nil, e.stderr)
	}
	defer built.Close()
	s, runErr := built.Why(ctx, f.w, e.stderr)
	var none *gobench.NoLocks
	if out != nil {
		var kept []results.Point
		switch {
		case errors.As(runErr, &none):
			kept = []results.Point{none.Point}
		case s != nil:
			kept = gobench.StretchPoints(s)
		}
		if err := out.Finish(kept, true); err != nil {
			return failure{Err: err}
		}
	}
	switch {
	case errors.As(runErr, &none):
		fmt.Fprintln(e.stdout, textfmt.Wrap(none.Error()+".", textfmt.Width(e.stdout), ""))
		return nil
	case errors.As(runErr, &many), errors.As(runErr, &noMatch):
		return fmt.Errorf("-bench %q: %w", f.bench, runErr)
	case s == nil || len(s.Base) == 0:
		if runErr == nil {
			runErr = errors.New("nothing measured")
		}
		return exitcode.Ended(runErr, 0, count, "rounds", "nothing")
	}
	return writeStretches(e, s, format, runErr, count, f.w.MaxCount)
}
