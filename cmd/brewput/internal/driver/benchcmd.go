package driver

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/gobench"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
)

func newBenchCmd(e *env) *cobra.Command {
	var cfg gobench.Config
	var cpus, cpuset, col, format, out, from string
	var benchmem bool
	cmd := goTestCommand("bench [packages] [-bench re] [-cpu list] [-- go test flags]",
		"Run Go benchmarks on 1, 2, … pinned CPUs; report how they scale",
		func(cmd *cobra.Command, pkgs, goFlags []string) error {
			var err error
			if from != "" {
				return benchFrom(e, cmd.Flags(), from, pkgs, goFlags, cfg.Bench, col, format, out)
			}
			cfg.Packages, cfg.Dir = pkgs, e.dir
			if cfg.BuildFlags, cfg.TestFlags, err = gobench.SplitFlags(goFlags); err != nil {
				return fmt.Errorf("go test flags: %w", err)
			}
			if cpus == "" {
				cpus = fmt.Sprintf("1-%d", runtime.NumCPU())
			}
			if cfg.CPUs, err = host.ParseCPUList(cpus, runtime.NumCPU()); err != nil {
				return fmt.Errorf("-cpu: %w", err)
			}
			if cpuset != "" {
				if cfg.Within, err = host.ParseCPUIDs(cpuset); err != nil {
					return fmt.Errorf("--cpuset: %w", err)
				}
				if _, err := sweep.PinTo(slices.Max(cfg.CPUs), cfg.Within); err != nil {
					return fmt.Errorf("--cpuset %s: for %d CPUs: %w", cpuset, slices.Max(cfg.CPUs), err)
				}
			}
			if col != "" {
				if _, err := verdict.BenchFamiliesBy(nil, col); err != nil {
					return fmt.Errorf("-col: %w", err)
				}
			}
			if cfg.Count < 1 {
				return fmt.Errorf("-count %d: want 1 or more runs of each benchmark", cfg.Count)
			}
			if err := cfg.Validate(); err != nil {
				return fmt.Errorf("-%w", err)
			}
			f, err := results.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			if err := report.CheckDir(out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			if err := e.hold(out); err != nil {
				return err
			}
			cfg.Log = e.stderr
			// Watched, each benchmark runs unwatched too, to say where
			// watching changed what it watched.
			cfg.Unwatched = cfg.Locks
			e.notePlatform()
			res, runErr := gobench.Run(cmd.Context(), cfg)
			return gobench.Ended(res, runErr, func(points []results.Point) error {
				if err := writeBenchReport(e, points, col, out, f); err != nil {
					return err
				}
				if costs := gobench.WatchCosts(points, res.Unwatched); len(costs) > 0 {
					w := e.stderr // beside JSON or CSV, not into it
					if f == results.Table {
						w = e.stdout
					}
					gobench.WriteWatchCosts(w, costs)
				}
				return nil
			}, e.stderr)
		})
	fs := cmd.Flags()
	fs.StringVar(&cfg.Bench, "bench", ".", "benchmarks to run, a regular expression\n(as go test -bench)")
	fs.StringVar(&cfg.Run, "run", "^$", "tests to run first, a regular expression\n(and examples, as go test -run; their output is not read)")
	fs.StringVar(&cpus, "cpu", "", "CPU counts, such as 1,2 or 1-4\n(as go test -cpu, each run pinned to that many CPUs; default 1 to all)")
	fs.StringVar(&cpus, "cpus", "", "the same as -cpu")
	fs.StringVar(&col, "col", "", "compare the benchmarks by these name parts\n(as benchstat's -col): /key (such as /impl) or .name, several joined by commas (default: the first part in which they vary, or .name where they share nothing else)")
	fs.StringVar(&cpuset, "cpuset", "", "the CPUs to run on, as ids such as 2-5\n(as taskset -c): a run on n CPUs is pinned to the first n (default: the first n this process may use)")
	fs.MarkHidden("cpus")
	fs.IntVar(&cfg.Count, "count", 1, "runs of each benchmark per CPU count\n(as go test -count); 6 or more for intervals and verdicts")
	fs.StringVar(&cfg.Benchtime, "benchtime", "", "each run's length or iterations, 2s or 1000x\n(as go test -benchtime; default 1s)")
	fs.BoolVar(&cfg.Locks, "locks", false, "see every sync.Mutex and RWMutex the benchmarks take,\nwith no change to their code: the test binaries are built with an overlay of the Go toolchain's sync and testing that notes each lock site (function and file:line) and how often its locks are taken, held and waited for")
	fs.BoolVar(&benchmem, "benchmem", true, "B/op and allocs/op, always recorded\n(as go test -benchmem)")
	fs.StringVar(&format, "format", "table", strings.Join(results.Formats(), "|")+"\n(what to print)")
	fs.StringVar(&out, "out", defaultReportDir, "folder to write the report to\n(its results.json keeps what was measured)")
	fs.StringVar(&from, "from", "", "report the benchmarks of this results file\n(a report's results.json, or predict's or why's --out FILE, their runs as they are) instead of measuring")
	return cmd
}

// writeBenchReport writes the report of points into out, and what the
// terminal shows of it.
func writeBenchReport(e *env, points []results.Point, col, out string, f results.Format) error {
	a, err := experiment.Analyze(points, experiment.Options{BenchCol: col})
	if err != nil {
		return err
	}
	return report.WriteBench(e.stdout, e.stderr, out, points, a, f)
}

// benchFrom reports the benchmarks' runs as they are that a results file
// keeps, those bench matches (without Benchmark) where given.
func benchFrom(e *env, fs *pflag.FlagSet, from string, pkgs, goFlags []string, bench, col, format, out string) error {
	if err := measuringOnly(fs, from, "run", "cpu", "cpus", "cpuset", "count", "benchtime", "locks", "benchmem"); err != nil {
		return err
	}
	if len(pkgs)+len(goFlags) > 0 {
		return fmt.Errorf("--from %s: reads what was measured; give no package or go test flags", from)
	}
	f, err := results.ParseFormat(format)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	match, err := benchPattern(bench)
	if err != nil {
		return err
	}
	all, err := e.openResults(from)
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	points := measuredBenches(all, match)
	if len(points) == 0 {
		return fmt.Errorf("--from %s: no measured benchmark%s", from, map[bool]string{true: " matches -bench " + bench, false: ""}[fs.Changed("bench")])
	}
	if err := report.CheckDir(out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := e.hold(out); err != nil {
		return err
	}
	return failed(writeBenchReport(e, points, col, out, f))
}

// goTestCommand is a command that takes go test's flags, whose one dash
// pflag would read as clusters of shorthands: run gets them parsed once
// spelled with two, the packages before --, go test's flags after it.
func goTestCommand(use, short string, run func(cmd *cobra.Command, pkgs, goFlags []string) error) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			fs := cmd.Flags()
			if err := fs.Parse(goSpelled(fs, args)); err != nil {
				return modelcli.ExplainFlag(didYouMean(cmd, err))
			}
			if help, _ := fs.GetBool("help"); help {
				return cmd.Help()
			}
			if err := modelcli.CheckFinite(fs); err != nil {
				return err
			}
			pkgs, goFlags := fs.Args(), []string(nil)
			if at := fs.ArgsLenAtDash(); at >= 0 {
				pkgs, goFlags = pkgs[:at], pkgs[at:]
			}
			return run(cmd, pkgs, goFlags)
		},
	}
}

// goSpelled spells go test's one-dash flags (-bench .) with two, up to --.
func goSpelled(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(name) > 1 && fs.Lookup(name) != nil {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}
