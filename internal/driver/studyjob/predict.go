package studyjob

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"

	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
)

// target is the machine a prediction is for past this one's CPUs, and
// this one: their contention curves, and what the first is.
type target struct {
	here, there *curves.Curves
	about       string // the machine there, in words
	calibrated  bool   // there's curves are its calibration's, not the reference's
}

// machines reads this machine's curves from its calibration (only the
// work loop's speed where it has none), and the machine predicted for:
// the calibration at path, or where path is "" the reference machine.
func machines(ctx context.Context, path string, measure calibrate.Measurer, tell func(string)) (target, error) {
	var t target
	here, _, err := calibrate.Default(ctx, measure, tell)
	if err != nil {
		return t, err
	}
	t.here = here.Curves
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
	var at []results.Point
	for _, p := range runs {
		if p.CPUs == n {
			at = append(at, p)
		}
	}
	slices.SortFunc(at, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
	return at[(len(at)-1)/2]
}
