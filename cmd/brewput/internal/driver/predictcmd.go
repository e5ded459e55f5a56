package driver

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/gobench"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/studyjob"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/results"
)

func newPredictCmd(e *env) *cobra.Command {
	var bench, benchtime, cpus, measure, format, from, out, calibration, noisy string
	var count int
	cmd := goTestCommand("predict PACKAGE -bench REGEXP [--cpus 1-64] [flags] [-- go test flags]",
		"Predict a Go benchmark on more CPUs from the locks it takes",
		func(cmd *cobra.Command, pkgs, goFlags []string) error {
			fs := cmd.Flags()
			var err error
			var asStudy func([]results.Point) []results.Point // a benchmark's points as a study's, numbered
			cfg := gobench.Config{Packages: pkgs, Bench: bench, Count: count, Benchtime: benchtime, Locks: true, Log: e.stderr, Dir: e.dir, Retry: modelcli.RetryOf(noisy)}
			f := studyjob.Predict{JSON: format == "json", Calibration: calibration, Measure: e.calibrateCosts, KeepDisturbed: noisy == "ok"}
			switch {
			case from != "" && len(pkgs)+len(goFlags) > 0:
				return fmt.Errorf("--from %s: reads what was measured; give no package or go test flags", from)
			case from == "" && len(pkgs) != 1:
				return errors.New("predict: give one package, such as brewput predict ./book -bench Book --cpus 1-8, or --from FILE")
			case from == "" && bench == "":
				return errors.New("-bench: give the benchmarks to predict, such as -bench Book")
			case count < 1:
				return fmt.Errorf("-count %d: want 1 or more runs of each benchmark", count)
			}
			if f.CPUs, err = host.ParseCPUList(cpus, host.ModelMaxCPUs); err != nil {
				return fmt.Errorf("--cpus: %w", err)
			}
			if err := studyjob.CheckCalibration(calibration); err != nil {
				return err
			}
			var measured []results.Point
			if from != "" {
				for _, name := range []string{"measure", "count", "benchtime", "out"} {
					if fs.Changed(name) {
						return fmt.Errorf("--%s: applies when measuring; --from %s reads what was measured", name, from)
					}
				}
				if measured, err = readBenchLocks(from, bench); err != nil {
					return err
				}
			} else {
				if cfg.CPUs, err = host.ParseCPUList(measure, runtime.NumCPU()); err != nil {
					return fmt.Errorf("--measure: %w", err)
				}
				if cfg.BuildFlags, cfg.TestFlags, err = gobench.SplitFlags(goFlags); err != nil {
					return fmt.Errorf("go test flags: %w", err)
				}
				if err := cfg.Validate(); err != nil {
					return fmt.Errorf("-%w", err)
				}
				o, err := e.resultsOut(out, "predict")
				if err != nil {
					return err
				}
				e.notePlatform()
				built, err := gobench.Build(cmd.Context(), cfg)
				if err != nil {
					return gobench.Ended(gobench.Result{}, err, nil, e.stderr)
				}
				defer built.Close()
				res, runErr := built.Run(cmd.Context())
				if err := gobench.Ended(res, runErr, func(points []results.Point) error {
					measured = points
					if o != nil {
						return o.Finish(points, true)
					}
					return nil
				}, e.stderr); err != nil {
					return err
				}
				f.More = func(ctx context.Context, variants map[string]int) ([]results.Point, error) {
					res, err := built.Again(ctx, variants, count)
					for _, fl := range res.Failures {
						fmt.Fprintf(e.stderr, "FAIL: %v\n", fl)
					}
					// The file keeps the runs measured again too, so that
					// --from answers as this run does.
					if measured = append(measured, res.Points...); o != nil && len(res.Points) > 0 {
						if werr := o.Finish(measured, true); werr != nil {
							return nil, werr
						}
					}
					return asStudy(res.Points), err
				}
			}
			name := measured[0].Bench.Pkg
			reps := map[[2]any]int{} // the runs so far, by variant and CPU count
			asStudy = func(points []results.Point) []results.Point {
				var out []results.Point
				for _, p := range points {
					p.Kind, p.Study, p.Bench = results.KindStudy, &results.Study{Name: name, Meters: p.Bench.Locks}, nil
					if !slices.Contains(f.Variants, p.Mode) {
						f.Variants = append(f.Variants, p.Mode)
					}
					k := [2]any{p.Mode, p.CPUs}
					reps[k]++
					p.Rep = reps[k]
					out = append(out, p)
				}
				return out
			}
			out := e.stdout
			if f.JSON {
				out = nil // the points are written as benchmarks' below
			}
			predicted, ranked, notPredicted, err := studyjob.PredictFrom(cmd.Context(), name, f, asStudy(measured), out, e.stderr)
			if err != nil || !f.JSON {
				return err
			}
			for i := range predicted {
				p := &predicted[i]
				p.Kind, p.Bench, p.Study = results.KindBench, &results.Benchmark{Name: "Benchmark" + p.Mode, Pkg: name, Locks: p.Study.Meters}, nil
			}
			err = results.Write(e.stdout, results.JSON, predicted)
			if err == nil {
				err = results.AppendRankings(e.stdout, ranked)
			}
			if err == nil {
				err = results.AppendNotPredicted(e.stdout, notPredicted)
			}
			return failed(err)
		})
	fs := cmd.Flags()
	fs.StringVar(&bench, "bench", "", "the benchmarks to predict, a regular expression\n(as go test -bench; with --from, of their names without Benchmark)")
	fs.StringVar(&from, "from", "", "read what was measured from this results file\n(predict --out FILE, brewput bench --locks --format json or its report's results.json, or why --out FILE: its runs as they are) instead of measuring")
	fs.StringVar(&out, "out", "", "also write what was measured to this results file\n(JSON Lines; predict --from, why --from and bench --from read it)")
	fs.StringVar(&cpus, "cpus", "1-64", "CPU counts to predict, such as 1-64\nor 1,2,4,8")
	fs.StringVar(&measure, "measure", host.Doubling(runtime.NumCPU()), "CPU counts to measure first,\neach run pinned to that many CPUs, up to this machine's;\nthe prediction stands on the most measured")
	fs.IntVar(&count, "count", 3, "runs of each benchmark per CPU count;\nthe model reads the median run")
	fs.StringVar(&benchtime, "benchtime", "500ms", "a run's length, such as 1s or 100000x\n(as go test -benchtime)")
	fs.StringVar(&calibration, "calibration", "", "the calibration of the machine to predict for\n(brewput calibrate --out FILE, run there); default: the many-core machine whose contention curves brewput knows")
	modelcli.ChoiceVar(fs, &noisy, "noisy", "retry", fmt.Sprintf("disturbed runs: retry or ok\n(runs from whose CPUs other processes took more than %g CPU: retry measures a benchmark whose runs on a CPU count are too disturbed again alone, up to 3 times a run, each after waiting up to 5 s for a quiet machine, predicts from the undisturbed runs alone, and declines it if they stay too few; ok predicts from them, saying how many)", results.DisturbedCPUs),
		"retry (measure again, predict from undisturbed runs alone) or ok (predict from disturbed runs too)", "retry", "ok")
	formatVar(fs, &format, "\n(JSON Lines, a point per benchmark and CPU count)")
	return cmd
}

// readBenchLocks reads the measured, lock-watched benchmark points of one
// package from a results file, those bench matches where given.
func readBenchLocks(path, bench string) ([]results.Point, error) {
	all, err := results.ReadFiles(path)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	var match *regexp.Regexp
	if bench != "" {
		if match, err = regexp.Compile(bench); err != nil {
			return nil, fmt.Errorf("-bench %q: not a regular expression: %w", bench, err)
		}
	}
	var out []results.Point
	for _, p := range all {
		if p.Kind != results.KindBench || p.Source == results.SourceModel || !p.Bench.AsIs() || match != nil && !match.MatchString(p.Mode) {
			continue
		}
		if len(out) > 0 && p.Bench.Pkg != out[0].Bench.Pkg {
			return nil, fmt.Errorf("--from %s: benchmarks of %s and %s; predict one package's (-bench chooses)", path, out[0].Bench.Pkg, p.Bench.Pkg)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--from %s: no measured benchmark%s", path, map[bool]string{true: " matches -bench " + bench, false: ""}[bench != ""])
	}
	if i := slices.IndexFunc(out, func(p results.Point) bool { return !p.Bench.Watched }); i >= 0 {
		return nil, fmt.Errorf("--from %s: the locks of %s were not watched; measure with brewput bench --locks", path, out[i].Bench.Name)
	}
	return out, nil
}
