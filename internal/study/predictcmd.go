package study

import (
	"context"
	"errors"
	"fmt"
	"github.com/brewput/brewput/internal/format"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/predict"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// Predict is a prediction of Plan's variants on CPUs under Options, from
// what Plan measures or the results file From holds; JSON writes the
// predicted points alone, Out is a folder for their report.
type Predict struct {
	Plan
	From    string
	CPUs    []int
	Options predict.Options
	JSON    bool
	Out     string
	// Unseen says why a variant with no lock is not predicted, after
	// "no lock … was seen in it": what brewput looked for.
	Unseen string
}

// Predict predicts f's variants on f.CPUs from models of their meters
// and writes the answer, the models and the table of predicted against
// measured points (or JSON) to stdout, its progress to stderr.
func (p *Program) Predict(ctx context.Context, f Predict, stdout, stderr io.Writer) error {
	if f.Out != "" {
		if err := report.CheckDir(f.Out); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	if err := f.Options.Check(); err != nil {
		return err
	}
	var measured []results.Point
	var err error
	if f.From != "" {
		if measured, err = readStudy(f.From, p, f.Variants); err != nil {
			return err
		}
	} else {
		var runErr error
		measured, runErr = p.Measure(ctx, f.Plan, stderr, nil)
		if runErr != nil {
			return exitcode.Measured(runErr, len(measured), f.Total())
		}
	}
	if f.Unseen == "" {
		f.Unseen = "behind a meter"
	}
	_, err = PredictFrom(ctx, p.Name, f, measured, stdout, stderr)
	return err
}

// PredictFrom predicts f's variants of study name on f.CPUs from models of
// the locks measured shows, and writes the answer, the models and the
// table of predicted against measured points to stdout (with f.JSON, the
// predicted points, where stdout is not nil), its progress to stderr. It
// returns the predicted points.
func PredictFrom(ctx context.Context, name string, f Predict, measured []results.Point, stdout, stderr io.Writer) ([]results.Point, error) {
	if err := f.Options.Check(); err != nil {
		return nil, err
	}
	models, err := modelsOf(f.Variants, measured)
	if err != nil {
		return nil, exitcode.Failure{Err: err}
	}
	models, unseen := withLocks(models)
	notPredicted := ""
	if len(unseen) > 0 {
		one := len(unseen) == 1
		it, its := map[bool]string{true: "it", false: "them"}[one], map[bool]string{true: "its", false: "their"}[one]
		notPredicted = fmt.Sprintf("Not predicted: %s: no lock %s was seen in %s, and a model of what brewput does not see would scale with the CPUs by construction",
			strings.Join(unseen, ", "), f.Unseen, it)
		if f.Unseen == "behind a meter" {
			notPredicted += fmt.Sprintf(" (a lock inside a dependency, such as sync.Map's, stays unseen); meter %s locks, or watch every lock of %s benchmarks (brewput predict PKG -bench), to predict %s.", its, its, it)
		} else {
			notPredicted += " (what it waits on without a sync.Mutex or RWMutex stays unseen: channels, atomics, the network)."
		}
	}
	if len(models) == 0 {
		return nil, exitcode.Failure{Err: errors.New(notPredicted)}
	}
	if f.Options.MaxCPUs == 0 && len(f.CPUs) > 0 {
		f.Options.MaxCPUs = slices.Max(f.CPUs)
	}
	pr, err := predict.Resolve(ctx, f.Options, format.Lines(stderr, ""))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "predicting %d variant(s) on %d CPU count(s)\n", len(f.Variants)-len(unseen), len(f.CPUs))
	predicted, err := predictAll(ctx, pr, name, models, f.CPUs, stderr)
	if err != nil {
		return nil, exitcode.Ended(err, 0, len(f.Variants)*len(f.CPUs), "points", "nothing")
	}
	all := append(slices.Clone(measured), predicted...)
	if f.JSON {
		if stdout != nil {
			if err := results.Write(stdout, results.JSON, predicted); err != nil {
				return nil, exitcode.Failure{Err: err}
			}
		}
		if notPredicted != "" {
			fmt.Fprintln(stderr, notPredicted)
		}
	} else {
		// The answer first, then what the model is made of, and the table.
		if err := text.WriteVerdict(stdout, verdict.Of(all)); err != nil {
			return nil, exitcode.Failure{Err: err}
		}
		if notPredicted != "" {
			fmt.Fprintln(stdout, format.Wrap(notPredicted, format.Width(stdout), ""))
		}
		fmt.Fprintln(stdout)
		if err := writePrediction(stdout, models, predicted, measured, f.CPUs); err != nil {
			return nil, exitcode.Failure{Err: err}
		}
		fmt.Fprintln(stdout, format.Wrap(pr.Describe(), format.Width(stdout), "  "))
	}
	if f.Out != "" {
		a, err := analyze.Points(all, analyze.Options{})
		var r *report.Report
		if err == nil {
			r, err = report.Build(all, a)
		}
		if err == nil {
			err = r.WriteDir(f.Out)
		}
		if err != nil {
			return nil, exitcode.Failure{Err: err}
		}
		w := stderr // beside JSON, not into it
		if !f.JSON {
			w = stdout
		}
		fmt.Fprintf(w, "\nreport: %s/%s\n", f.Out, report.Index)
	}
	return predicted, nil
}

// readStudy reads the measured points of s's variants from a results file.
func readStudy(path string, s *Program, variants []string) ([]results.Point, error) {
	all, err := results.ReadFiles(path)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	var out []results.Point
	for _, p := range all {
		if p.StudyName() == s.Name && p.Source != results.SourceModel && slices.Contains(variants, p.Mode) {
			out = append(out, p)
		}
	}
	var missing []string
	for _, v := range variants {
		if !slices.ContainsFunc(out, func(p results.Point) bool { return p.Mode == v }) {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("--from %s: no measured point of %s of study %s; measure them with run --out FILE, or choose --variants", path, strings.Join(missing, ", "), s.Name)
	}
	return out, nil
}

// withLocks keeps the models of variants with a metered lock, and names
// the variants without one: to the model such a variant is work outside
// every lock, which scales with the CPUs whatever it holds unseen.
func withLocks(models []variantModel) (kept []variantModel, unseen []string) {
	for _, m := range models {
		if len(m.Locks) == 0 {
			if !slices.Contains(unseen, m.Variant) {
				unseen = append(unseen, m.Variant)
			}
			continue
		}
		kept = append(kept, m)
	}
	return kept, unseen
}
