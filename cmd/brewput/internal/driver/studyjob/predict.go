package studyjob

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/model/forecast"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// CheckCalibration refuses, before anything is measured, a calibration
// of the machine predicted for that predict cannot read.
func CheckCalibration(path string) error {
	if path == "" {
		return nil
	}
	if _, err := forecast.LoadTarget(path); err != nil {
		return fmt.Errorf("--calibration %w", err)
	}
	return nil
}

// Predict is a prediction of Plan's variants on CPUs, from what Plan
// measures or the results file From holds, for the machine whose
// calibration is Calibration ("" for the reference machine); JSON writes
// the predicted points alone, Out is a folder for their report.
type Predict struct {
	Plan
	From        string
	CPUs        []int
	Calibration string
	Measure     calibrate.Measurer // this machine's calibration where none is kept
	Here        *curves.Curves     // the measuring machine's curves, if not this one's (validation's)
	JSON        bool
	Out         string
	// KeepDisturbed predicts from disturbed runs too (--noisy ok), saying
	// how many; else from the undisturbed alone, declining a variant too disturbed.
	KeepDisturbed bool
	// More, where not nil, measures the variants whose runs read as more
	// than one kind again (each on one CPU and the count named), up to
	// MoreRounds times, before predicting: more runs may decide them.
	More func(ctx context.Context, variants map[string]int) ([]results.Point, error)
}

// MoreRounds is how many times Predict.More measures undecided variants
// again: their runs' outer fifth is left out from five on (curves.Decide),
// and twice the first -count's more leaves out a run at each end.
const MoreRounds = 2

// Predict predicts f's variants on f.CPUs from what their meters show.
func (p *Program) Predict(ctx context.Context, f Predict, stdout, stderr io.Writer) error {
	if f.Out != "" {
		if err := report.CheckDir(f.Out); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
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
	_, _, _, err = PredictFrom(ctx, p.Name, f, measured, stdout, stderr)
	return err
}

// PredictFrom predicts f's variants of study name on f.CPUs from their
// runs in measured, writes the answer to stdout (nil: none) and its
// progress to stderr, and returns the points predicted, their rankings
// and the variants not predicted.
func PredictFrom(ctx context.Context, name string, f Predict, measured []results.Point, stdout, stderr io.Writer) ([]results.Point, []results.Ranking, []results.NotPredicted, error) {
	t, err := forecast.Machines(ctx, f.Calibration, f.Here, f.Measure, text.CalibrationTeller(format.Lines(stderr, "")))
	if err != nil {
		if f.Calibration != "" {
			err = fmt.Errorf("--calibration %w", err)
		}
		return nil, nil, nil, err
	}
	opts := forecast.Options{Name: name, Variants: f.Variants, CPUs: f.CPUs, KeepDisturbed: f.KeepDisturbed}
	for round := 0; f.More != nil && round < MoreRounds; round++ {
		undecided := forecast.Undecided(opts, measured, t.Here)
		if len(undecided) == 0 {
			break
		}
		again := map[string]int{}
		for _, u := range undecided {
			again[u.Variant] = u.CPUs
			fmt.Fprintln(stderr, format.Wrap(text.MeasuringAgain(u.Variant, u.CPUs, collect.Mapped(u.Kinds, func(k curves.Kind) string { return string(k) })), format.Width(stderr), "  "))
		}
		more, err := f.More(ctx, again)
		if measured = append(measured, more...); err != nil {
			return nil, nil, nil, err
		}
	}
	fc, err := forecast.Predict(opts, measured, t)
	if err != nil {
		return nil, nil, nil, exitcode.Failure{Err: err}
	}
	measuredOn := map[string][]int{}
	for _, p := range measured {
		if !slices.Contains(measuredOn[p.Mode], p.CPUs) {
			measuredOn[p.Mode] = append(measuredOn[p.Mode], p.CPUs)
		}
	}
	kinds := map[string]string{}
	for v, k := range fc.Kinds {
		kinds[v] = string(k)
		if others := fc.Undecided[v]; len(others) > 0 {
			kinds[v] = text.UndecidedKind(string(k), collect.Mapped(others, func(k curves.Kind) string { return string(k) }))
		}
	}
	predicted, ranked, unseen := fc.Points, verdict.Rank(fc.Points, f.CPUs, measuredOn, kinds), fc.NotPredicted
	for i := range unseen {
		unseen[i].Reason = text.NotPredictedReason(unseen[i])
	}
	// The answer first (the rankings on the most CPUs, JSON's points),
	// then what it stands on and the table, then why a variant or a count
	// is not predicted and where the report went: on stderr beside JSON.
	tell := stdout
	if f.JSON {
		tell = stderr
		text.SayRankings(ranked)
		if stdout != nil {
			if err := WriteJSON(stdout, predicted, ranked, unseen); err != nil {
				return nil, nil, nil, exitcode.Failure{Err: err}
			}
		}
	} else if len(predicted) > 0 {
		if err := writeAnswer(stdout, f, t, fc, ranked, measured); err != nil {
			return nil, nil, nil, exitcode.Failure{Err: err}
		}
	}
	if fc.Disturbed > 0 {
		fmt.Fprintln(tell, format.Wrap(text.DisturbedRuns(fc.Disturbed, fc.Ran, f.KeepDisturbed), format.Width(tell), ""))
	}
	for _, line := range text.NotPredictedLines(unseen) {
		fmt.Fprintln(tell, format.Wrap(line, format.Width(tell), ""))
	}
	if len(predicted) == 0 {
		return nil, nil, unseen, nil
	}
	if f.Out != "" {
		all := append(slices.Clone(measured), predicted...)
		a, err := experiment.Analyze(all, experiment.Options{})
		var r *report.Report
		if err == nil {
			r, err = report.BuildWith(all, report.Options{Analysis: a, Modes: coffee.Declared{}})
		}
		if err == nil {
			err = r.WriteDir(f.Out)
		}
		if err != nil {
			return nil, nil, nil, exitcode.Failure{Err: err}
		}
		fmt.Fprintln(tell)
		report.WritePlace(tell, f.Out+"/"+report.Index)
	}
	return predicted, ranked, unseen, nil
}

// WriteJSON writes a prediction as JSON Lines: its points, their
// rankings and the variants not predicted.
func WriteJSON(w io.Writer, predicted []results.Point, ranked []results.Ranking, notPredicted []results.NotPredicted) error {
	err := results.WriteJSON(w, predicted)
	if err == nil {
		err = results.AppendRankings(w, ranked)
	}
	if err == nil {
		err = results.AppendNotPredicted(w, notPredicted)
	}
	return err
}

// writeAnswer writes fc as a table: the rankings on the most CPUs, the
// machine predicted for and how far such answers held, then the table.
func writeAnswer(w io.Writer, f Predict, t forecast.Target, fc forecast.Forecast, ranked []results.Ranking, measured []results.Point) error {
	about := t.There.About
	if t.Calibrated {
		about = fmt.Sprintf("%s (%s, %d CPUs)", t.Host, t.CPUModel, t.There.MaxCPUs())
	}
	checked, past := map[string]text.Checked{}, map[string]text.Checked{}
	for k, c := range fc.Checked {
		checked[string(k)] = text.Checked(c)
	}
	for k, c := range fc.CheckedPast {
		past[string(k)] = text.Checked(c)
	}
	text.WriteRanked(w, ranked)
	text.WriteTarget(w, text.Target{About: about, Calibrated: t.Calibrated, Here: runtime.NumCPU(),
		Measured: t.There.MaxCPUs(), Farthest: slices.Max(f.CPUs), Checked: checked, CheckedCPUs: curves.CheckedCPUs,
		Past: past, PastCPUs: [2]int{curves.CheckedPastFrom, curves.CheckedPastTo}})
	return text.WriteRanking(w, ranked, fc.Base, checked, tableCounts(f.CPUs, measured), forecast.Counts(measured))
}

// tableCounts are the CPU counts the prediction's table shows: the first
// and the last, the powers of two and those measured.
func tableCounts(cpus []int, measured []results.Point) []int {
	var out []int
	for i, n := range cpus {
		pow2 := n&(n-1) == 0
		if i == 0 || i == len(cpus)-1 || pow2 || slices.ContainsFunc(measured, func(p results.Point) bool { return p.CPUs == n }) {
			out = append(out, n)
		}
	}
	return out
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
