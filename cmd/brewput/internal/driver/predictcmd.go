package driver

import (
	"context"
	"errors"
	"fmt"
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
			var again func(context.Context, map[string]int) ([]results.Point, error)
			if from != "" {
				if err := measuringOnly(fs, from, "measure", "count", "benchtime", "out"); err != nil {
					return err
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
				var closeBuilt func()
				if measured, again, closeBuilt, err = measureBenchLocks(cmd.Context(), e, cfg, out); err != nil {
					return err
				}
				defer closeBuilt()
			}
			name := measured[0].Bench.Pkg
			asStudy := benchAsStudy(&f, name)
			if again != nil {
				f.More = func(ctx context.Context, variants map[string]int) ([]results.Point, error) {
					points, err := again(ctx, variants)
					return asStudy(points), err
				}
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
			return failed(studyjob.WriteJSON(e.stdout, predicted, ranked, notPredicted))
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

// measureBenchLocks measures cfg's benchmarks, their locks watched, and
// writes them to the results file out names, if any; again measures the
// variants named, count times more, alone, keeping them in that file too.
// closeBuilt removes the test binaries.
func measureBenchLocks(ctx context.Context, e *env, cfg gobench.Config, out string) (measured []results.Point, again func(context.Context, map[string]int) ([]results.Point, error), closeBuilt func(), err error) {
	o, err := e.resultsOut(out, "predict")
	if err != nil {
		return nil, nil, nil, err
	}
	e.notePlatform()
	built, err := gobench.Build(ctx, cfg)
	if err != nil {
		return nil, nil, nil, gobench.Ended(gobench.Result{}, err, nil, e.stderr)
	}
	res, runErr := built.Run(ctx)
	if err := gobench.Ended(res, runErr, func(points []results.Point) error {
		measured = points
		if o != nil {
			return o.Finish(points, true)
		}
		return nil
	}, e.stderr); err != nil {
		built.Close()
		return nil, nil, nil, err
	}
	kept := measured
	again = func(ctx context.Context, variants map[string]int) ([]results.Point, error) {
		res, err := built.Again(ctx, variants, cfg.Count)
		for _, fl := range res.Failures {
			fmt.Fprintf(e.stderr, "FAIL: %v\n", fl)
		}
		// The file keeps the runs measured again too, so that --from
		// answers as this run does.
		if kept = append(kept, res.Points...); o != nil && len(res.Points) > 0 {
			if werr := o.Finish(kept, true); werr != nil {
				return nil, werr
			}
		}
		return res.Points, err
	}
	return measured, again, built.Close, nil
}

// benchAsStudy turns a package's benchmark points into study name's,
// each variant's runs on a CPU count numbered on from those before, and
// adds their variants to f's.
func benchAsStudy(f *studyjob.Predict, name string) func([]results.Point) []results.Point {
	reps := map[[2]any]int{} // the runs so far, by variant and CPU count
	return func(points []results.Point) []results.Point {
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
}

// readBenchLocks reads the measured, lock-watched benchmark points of one
// package from a results file, those bench matches where given.
func readBenchLocks(path, bench string) ([]results.Point, error) {
	all, err := results.ReadFiles(path)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	match, err := benchPattern(bench)
	if err != nil {
		return nil, err
	}
	out := measuredBenches(all, match)
	if i := slices.IndexFunc(out, func(p results.Point) bool { return p.Bench.Pkg != out[0].Bench.Pkg }); i >= 0 {
		return nil, fmt.Errorf("--from %s: benchmarks of %s and %s; predict one package's (-bench chooses)", path, out[0].Bench.Pkg, out[i].Bench.Pkg)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--from %s: no measured benchmark%s", path, map[bool]string{true: " matches -bench " + bench, false: ""}[bench != ""])
	}
	if i := slices.IndexFunc(out, func(p results.Point) bool { return !p.Bench.Watched }); i >= 0 {
		return nil, fmt.Errorf("--from %s: the locks of %s were not watched; measure with brewput bench --locks", path, out[i].Bench.Name)
	}
	return out, nil
}
