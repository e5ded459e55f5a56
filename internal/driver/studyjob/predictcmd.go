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
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

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
}

// Predict predicts f's variants on f.CPUs from what their meters show
// (PredictFrom).
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
	_, _, err = PredictFrom(ctx, p.Name, f, measured, stdout, stderr)
	return err
}

// PredictFrom predicts f's variants of study name on f.CPUs from their
// runs in measured, and writes the answer and the table of predicted
// against measured points to stdout (with f.JSON, the predicted points
// and those not predicted, where stdout is not nil), its progress to
// stderr. It returns the points predicted and the variants not, with why.
func PredictFrom(ctx context.Context, name string, f Predict, measured []results.Point, stdout, stderr io.Writer) ([]results.Point, []results.NotPredicted, error) {
	t, err := machines(ctx, f.Calibration, f.Measure, format.Lines(stderr, ""))
	if err != nil {
		return nil, nil, err
	}
	if f.Here != nil {
		t.here = f.Here
	}
	var predicted []results.Point
	var unseen []results.NotPredicted
	kinds := map[string]string{}
	checked := map[string]text.Checked{}
	base := map[string]float64{} // each variant's median on one CPU
	past := 0
	for _, v := range f.Variants {
		runs := slices.DeleteFunc(slices.Clone(measured), func(p results.Point) bool { return p.Mode != v })
		if reason := unpredictable(runs); reason != "" {
			unseen = append(unseen, results.NotPredicted{Mode: v, Reason: reason})
			continue
		}
		base[v] = medianOf(runs, 1).Throughput
		points, kind, beyond, err := predictVariant(v, runs, f.CPUs, t)
		if err != nil {
			return nil, nil, exitcode.Failure{Err: fmt.Errorf("%s: %w", v, err)}
		}
		for i := range points {
			points[i].AsStudy(name)
		}
		predicted, kinds[v] = append(predicted, points...), string(kind)
		held, all, e := curves.Checked(kind)
		checked[string(kind)] = text.Checked{Held: held, Points: all, Err: e}
		if beyond > 0 {
			past = beyond
		}
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
	} else {
		text.WriteTarget(stdout, text.Target{About: t.about, Calibrated: t.calibrated, Here: runtime.NumCPU(), Past: past,
			Checked: checked, CheckedCPUs: curves.CheckedCPUs})
	}
	if len(predicted) > 0 && !f.JSON {
		if err := text.WriteSpeedups(stdout, predicted, base, kinds, checked, tableCounts(f.CPUs, measured), measuredCounts(measured)); err != nil {
			return nil, nil, exitcode.Failure{Err: err}
		}
	}
	for _, np := range unseen {
		fmt.Fprintln(tell, format.Wrap(fmt.Sprintf("Not predicted: %s: %s.", np.Mode, np.Reason), format.Width(tell), ""))
	}
	if len(predicted) == 0 {
		return nil, unseen, nil
	}
	if f.Out != "" {
		a, err := experiment.Analyze(all, experiment.Options{})
		var r *report.Report
		if err == nil {
			r, err = report.BuildWith(all, report.Options{Analysis: a, Modes: coffee.Declared{}})
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

// measuredCounts are the CPU counts measured.
func measuredCounts(measured []results.Point) []int {
	var out []int
	for _, p := range measured {
		if !slices.Contains(out, p.CPUs) {
			out = append(out, p.CPUs)
		}
	}
	return out
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

// unpredictable says why a variant's runs cannot be predicted, "" where
// they can: its speed-ups stand on one CPU's runs, and its kind on a
// count past one, where a shared lock and private ones differ.
func unpredictable(runs []results.Point) string {
	one, more := false, false
	for _, p := range runs {
		one = one || p.CPUs == 1 && p.Throughput > 0
		more = more || p.CPUs > 1 && p.Throughput > 0
	}
	switch {
	case !one:
		return "measured on no single CPU, which its speed-ups stand on; measure 1 CPU as well (--measure 1,2)"
	case !more:
		return "measured on 1 CPU only, which does not tell whether its CPUs would share its locks; measure 2 as well (--measure 1,2)"
	}
	return ""
}
