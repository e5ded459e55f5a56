package studyjob

import (
	"context"
	"fmt"
	"github.com/brewput/brewput/internal/base/format"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/run/predict"
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
	} else if measured, err = p.Measure(ctx, f.Plan, stderr, nil); err != nil {
		return exitcode.Measured(err, len(measured), f.Total())
	}
	if f.Unseen == "" {
		f.Unseen = "behind a meter"
	}
	_, _, err = PredictFrom(ctx, p.Name, f, measured, stdout, stderr)
	return err
}

// PredictFrom predicts f's variants of study name on f.CPUs from models of
// the locks measured shows, and writes the answer, the models and the
// table of predicted against measured points to stdout (with f.JSON, the
// predicted points and the variants not predicted, where stdout is not
// nil), its progress to stderr. It returns the predicted points and the
// variants it did not predict, with why: a variant is one or the other.
// Its caller has checked f.Options, before anything was measured.
func PredictFrom(ctx context.Context, name string, f Predict, measured []results.Point, stdout, stderr io.Writer) ([]results.Point, []results.NotPredicted, error) {
	models, err := modelsOf(f.Variants, measured)
	if err != nil {
		return nil, nil, exitcode.Failure{Err: err}
	}
	models, unseen := predictable(models, f.Unseen)
	var predicted []results.Point
	var shaped []string
	var pr predict.Prediction
	if len(models) > 0 {
		if f.Options.MaxCPUs == 0 && len(f.CPUs) > 0 {
			f.Options.MaxCPUs = slices.Max(f.CPUs)
		}
		if pr, err = predict.Resolve(ctx, f.Options, format.Lines(stderr, "")); err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(stderr, "predicting %d variant(s) on %d CPU count(s)\n", len(f.Variants)-len(unseen), len(f.CPUs))
		if predicted, err = predictAll(ctx, pr, name, models, f.CPUs, stderr); err != nil {
			return nil, nil, exitcode.Ended(err, 0, len(f.Variants)*len(f.CPUs), "points", "nothing")
		}
		shaped = shapeSingleLocks(predicted, models)
	}
	all := append(slices.Clone(measured), predicted...)
	// The answer first (JSON's points, the table's verdict), then why a
	// variant is not predicted: on stderr beside JSON.
	tell := stdout
	if f.JSON {
		tell = stderr
		if stdout != nil {
			if err = results.WriteJSON(stdout, predicted); err == nil {
				err = results.AppendNotPredicted(stdout, unseen)
			}
			if err != nil {
				return nil, nil, exitcode.Failure{Err: err}
			}
		}
	} else if err := text.WriteVerdict(stdout, verdict.Of(all)); err != nil {
		return nil, nil, exitcode.Failure{Err: err}
	}
	for _, np := range unseen {
		fmt.Fprintln(tell, format.Wrap(fmt.Sprintf("Not predicted: %s: %s.", np.Mode, np.Reason), format.Width(tell), ""))
	}
	if len(models) == 0 {
		// Nothing to simulate: the answer is what was measured, and why
		// none is predicted.
		return nil, unseen, nil
	}
	if !f.JSON {
		// Then what the model is made of, and the table.
		fmt.Fprintln(stdout)
		if err := writePrediction(stdout, models, predicted, measured, f.CPUs, shaped); err != nil {
			return nil, nil, exitcode.Failure{Err: err}
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
			return nil, nil, exitcode.Failure{Err: err}
		}
		w := stderr // beside JSON, not into it
		if !f.JSON {
			w = stdout
		}
		fmt.Fprintln(w)
		report.WritePlace(w, f.Out+"/"+report.Index)
	}
	return predicted, unseen, nil
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

// predictable keeps the models of the variants that can be predicted and
// says why each other is not. Locks seen on one CPU alone, each taken by
// one goroutine, may be one that every goroutine would share or one of
// each goroutine's own: not predicted. A variant with a lock at some CPU count is
// modelled at every count. One without: where every lock is watched
// (unseen is not "behind a meter"), its work alone, which scales with the
// CPUs, unless what was measured shows it did not (less than half the
// gain its added CPUs would give, from the fewest CPUs measured to the
// most): then something the model does not see limits it. Behind meters,
// a lock inside a dependency stays unseen: not predicted.
func predictable(models []variantModel, unseen string) (kept []variantModel, out []results.NotPredicted) {
	var variants []string
	for _, m := range models {
		if !slices.Contains(variants, m.Variant) {
			variants = append(variants, m.Variant)
		}
	}
	for _, v := range variants {
		var its []variantModel
		locked := false
		for _, m := range models {
			if m.Variant == v {
				its = append(its, m)
				locked = locked || len(m.Locks) > 0
			}
		}
		if locked {
			if reason := oneGoroutineOnly(its); reason != "" {
				out = append(out, results.NotPredicted{Mode: v, Reason: reason})
				continue
			}
			kept = append(kept, its...)
			continue
		}
		if unseen == "behind a meter" {
			out = append(out, results.NotPredicted{Mode: v, Reason: "no lock behind a meter was seen in it, and a model of what brewput does not see " +
				"would scale with the CPUs by construction (a lock inside a dependency, such as sync.Map's, stays unseen); meter its locks, " +
				"or watch every lock of its benchmarks (brewput predict PKG -bench), to predict it"})
			continue
		}
		lo, hi := its[0].From, its[0].From
		for _, m := range its {
			if m.From.CPUs < lo.CPUs {
				lo = m.From
			}
			if m.From.CPUs > hi.CPUs {
				hi = m.From
			}
		}
		if hi.CPUs > lo.CPUs {
			gain, ideal := hi.Throughput/lo.Throughput, float64(hi.CPUs)/float64(lo.CPUs)
			if gain-1 < (ideal-1)/2 {
				reason := fmt.Sprintf("no lock %s was seen in it, yet from %s to %d it made ×%.2f "+
					"where its work alone would make ×%.3g: what limits it is not a sync.Mutex or RWMutex (a channel, atomics, memory, "+
					"the allocator), which the model does not see", unseen, format.Count(lo.CPUs, "CPU"), hi.CPUs, gain, ideal)
				if lo.IsDisturbed() || hi.IsDisturbed() {
					// A busy machine flattens a curve too: say so, lest
					// the reason blame the code for the others' CPU.
					reason += ", or it was the other processes that took CPU from these runs: measure it again on a quiet machine to tell"
				}
				out = append(out, results.NotPredicted{Mode: v, Reason: reason})
				continue
			}
		}
		kept = append(kept, its...)
	}
	return kept, out
}

// oneGoroutineOnly says why a variant whose locks one goroutine alone took,
// on one CPU and never on more, cannot be predicted past it: a lock every
// goroutine shares and a lock each goroutine has to itself look the same
// there, and scale as differently as locks can. Empty where its models
// tell them apart, or where who took its locks is not known (meters).
// Another goroutine seen beside one worker (a benchmark's setup, taking a
// few of its 32 shards before b.RunParallel) tells them apart only where
// it took each lock too.
func oneGoroutineOnly(models []variantModel) string {
	seen := false
	for _, m := range models {
		if m.From.CPUs > 1 {
			return ""
		}
		for _, g := range m.Locks {
			if g.Goroutines > 1 && (m.From.Par > 1 || g.Takers >= 1.5) {
				return ""
			}
			seen = seen || g.Goroutines >= 1
		}
	}
	if !seen {
		return ""
	}
	return "measured on 1 CPU only, where one goroutine took each of its locks: a lock every goroutine would share and a lock each " +
		"goroutine has to itself look the same there, and scale as differently as locks can; measure on 2 CPUs as well " +
		"(--measure 1,2) to tell which it is"
}
