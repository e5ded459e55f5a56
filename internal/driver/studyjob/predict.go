package studyjob

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// target is the machine a prediction is for past this one's CPUs, and
// this one: their contention curves, and what the first is.
type target struct {
	here, there *curves.Curves
	about       string // the machine there, in words
	calibrated  bool   // there's curves are its calibration's, not the reference's
}

// machines reads the measuring machine's curves, here's where not nil,
// else this one's calibration (only the work loop's speed where it has
// none), and the machine predicted for: the calibration at path, or
// where path is "" the reference machine.
func machines(ctx context.Context, path string, here *curves.Curves, measure calibrate.Measurer, tell func(string)) (target, error) {
	t := target{here: here}
	if t.here == nil {
		c, _, err := calibrate.Default(ctx, measure, tell)
		if err != nil {
			return t, err
		}
		t.here = c.Curves
	}
	if t.here == nil {
		t.here = &curves.Curves{NsPerIter: curves.NsPerIter()}
	}
	if path == "" {
		t.there = curves.Reference()
		t.about = t.there.About
		return t, nil
	}
	c, err := loadTarget(path)
	if err != nil {
		return t, err
	}
	t.there, t.calibrated = c.Curves, true
	t.about = fmt.Sprintf("%s (%s, %d CPUs)", c.Host.Name, c.Host.CPUModel, c.Curves.MaxCPUs())
	return t, nil
}

// CheckCalibration refuses, before anything is measured, a calibration
// of the machine predicted for that predict cannot read.
func CheckCalibration(path string) error {
	if path == "" {
		return nil
	}
	_, err := loadTarget(path)
	return err
}

// loadTarget reads the calibration at path, which must hold contention
// curves past one CPU.
func loadTarget(path string) (calibrate.Calibration, error) {
	c, err := calibrate.Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, fmt.Errorf("--calibration %s: no such file; run brewput calibrate --out FILE on the machine predicted for", path)
	case err != nil:
		return c, fmt.Errorf("--calibration: %w", err)
	case c.Curves == nil || c.Curves.MaxCPUs() < 2:
		return c, fmt.Errorf("--calibration %s: holds no contention curves past one CPU; run this brewput's calibrate on the machine predicted for", path)
	}
	return c, nil
}

// predictVariant is variant's points on cpus from its runs: on a count
// measured, what was measured; up to this machine's CPUs, as its curves
// carry it; past them, as the target's do. It returns the points, and
// the first count past the curves (0 where none was).
func predictVariant(variant string, runs []results.Point, cpus []int, t target) ([]results.Point, curves.Kind, int, error) {
	b, err := curves.BenchOf(runs)
	if err != nil {
		return nil, "", 0, err
	}
	one := medianOf(runs, 1)
	var out []results.Point
	kind := curves.Of(b, t.here)
	for _, n := range cpus {
		r, measured := b.Measured[n]
		if !measured {
			there := t.there
			if n <= runtime.NumCPU() && n <= t.here.MaxCPUs() {
				there = t.here // this machine's own, measured
			}
			var ok bool
			if r, _, ok = curves.Predict(b, t.here, there, n); !ok {
				return out, kind, n, nil
			}
		}
		out = append(out, results.Point{Kind: results.KindStudy, Source: results.SourceModel,
			Spec:       results.Spec{Mode: variant, CPUs: n, Load: results.Load{Par: n * max(one.Par, 1) / max(one.CPUs, 1), Dur: one.Dur}},
			Throughput: one.Throughput * r.Mid, Unit: one.Unit, Host: one.Host,
			Band:  &results.Band{Throughput: [2]float64{one.Throughput * r.Lo, one.Throughput * r.Hi}, Shape: string(kind)},
			Study: &results.Study{Name: one.StudyName()}})
	}
	return out, kind, 0, nil
}

// medianOf is the run of median throughput on n CPUs.
func medianOf(runs []results.Point, n int) results.Point {
	at := slices.DeleteFunc(slices.Clone(runs), func(p results.Point) bool { return p.CPUs != n })
	slices.SortFunc(at, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
	return at[(len(at)-1)/2]
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
}

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
	_, _, err = PredictFrom(ctx, p.Name, f, measured, stdout, stderr)
	return err
}

// PredictFrom predicts f's variants of study name on f.CPUs from their
// runs in measured, writes the answer to stdout (nil: none) and its
// progress to stderr, and returns the points predicted and those not.
func PredictFrom(ctx context.Context, name string, f Predict, measured []results.Point, stdout, stderr io.Writer) ([]results.Point, []results.NotPredicted, error) {
	t, err := machines(ctx, f.Calibration, f.Here, f.Measure, format.Lines(stderr, ""))
	if err != nil {
		return nil, nil, err
	}
	var predicted []results.Point
	var unseen []results.NotPredicted
	disturbed, ran := 0, 0 // of the runs measured of the variants predicted
	kinds := map[string]string{}
	checked := map[string]text.Checked{}
	base := map[string]float64{} // each variant's median on one CPU
	past := 0
	for _, v := range f.Variants {
		runs := slices.DeleteFunc(slices.Clone(measured), func(p results.Point) bool { return p.Mode != v })
		reason := ""
		if !f.KeepDisturbed {
			reason = tooDisturbed(runs)
		}
		if reason == "" {
			ran += len(runs)
			quiet := slices.DeleteFunc(slices.Clone(runs), results.Point.IsDisturbed)
			if disturbed += len(runs) - len(quiet); !f.KeepDisturbed {
				runs = quiet
			}
			reason = unpredictable(runs)
		}
		if reason == "" {
			reason = unexplainedLoss(runs, t.here)
		}
		if reason != "" {
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
		held, all, e := curves.Checked(kind, t.calibrated)
		checked[string(kind)] = text.Checked{Held: held, Points: all, Err: e}
		if beyond > 0 {
			past = beyond
		}
	}
	// The answer first (JSON's points, the table's verdict), then why a
	// variant is not predicted and where the report went: on stderr beside JSON.
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
	} else if len(predicted) > 0 {
		text.WriteTarget(stdout, text.Target{About: t.about, Calibrated: t.calibrated, Here: runtime.NumCPU(), Past: past,
			Checked: checked, CheckedCPUs: curves.CheckedCPUs})
		if err := text.WriteSpeedups(stdout, predicted, base, kinds, checked, tableCounts(f.CPUs, measured), measuredCounts(measured)); err != nil {
			return nil, nil, exitcode.Failure{Err: err}
		}
	}
	if said := "left out: it stands on the rest"; disturbed > 0 {
		if f.KeepDisturbed {
			said = "kept (--noisy ok): it stands on them"
		}
		fmt.Fprintln(tell, format.Wrap(fmt.Sprintf("%d of the %d runs measured were disturbed (other processes took CPU while they ran) and %s.", disturbed, ran, said), format.Width(tell), ""))
	}
	for _, np := range unseen {
		fmt.Fprintln(tell, format.Wrap(fmt.Sprintf("Not predicted: %s: %s.", np.Mode, np.Reason), format.Width(tell), ""))
	}
	if len(predicted) == 0 {
		return nil, unseen, nil
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
			return nil, nil, exitcode.Failure{Err: err}
		}
		fmt.Fprintln(tell)
		report.WritePlace(tell, f.Out+"/"+report.Index)
	}
	return predicted, unseen, nil
}

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

// unexplainedLoss says why runs that lost on 2 CPUs what no lock or
// allocation seen explains are not predicted, "" where they are not such.
func unexplainedLoss(runs []results.Point, here *curves.Curves) string {
	b, err := curves.BenchOf(runs)
	if err != nil || curves.Of(b, here) != curves.Unexplained {
		return ""
	}
	return text.UnexplainedLoss(curves.Shortfall(b, here))
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

// tooDisturbed says, as results.TooDisturbed decides, why the runs of a CPU
// count are too disturbed to predict from, "" where none is.
func tooDisturbed(runs []results.Point) string {
	for _, n := range measuredCounts(runs) {
		at := slices.DeleteFunc(slices.Clone(runs), func(p results.Point) bool { return p.CPUs != n })
		if disturbed, too := results.TooDisturbed(at); too {
			return fmt.Sprintf("on %s, %s (--noisy ok predicts from them)", format.Count(n, "CPU"), text.TooDisturbed(disturbed, len(at)))
		}
	}
	return ""
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
