// Package forecast predicts the variants of a Go benchmark or a study on
// more CPUs from their measured runs: each variant's kind of contention
// read from its runs (model/curves), carried over the CPU counts asked by
// the measuring machine's curves up to its CPUs and past them by the
// target machine's, carried past the CPUs they were measured on
// (curves.Carry). It says, as typed facts, why a variant or a CPU count is
// not predicted; the words are report/text's.
package forecast

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
)

// Target is the machine a prediction is for past this one's CPUs, and
// this one: their contention curves, and what the first is.
type Target struct {
	Here, There *curves.Curves
	// Host and CPUModel name the machine there where its calibration
	// was given; both are "" for the reference machine (There.About).
	Host, CPUModel string
	Calibrated     bool // There's curves are its calibration's, not the reference's
}

// Machines reads the measuring machine's curves, here's where not nil,
// else this one's calibration (only the work loop's speed where it has
// none), and the machine predicted for: the calibration at path, or
// where path is "" the reference machine.
func Machines(ctx context.Context, path string, here *curves.Curves, measure calibrate.Measurer, tell func(results.CalibrationEvent)) (Target, error) {
	t := Target{Here: here}
	if t.Here == nil {
		c, _, err := calibrate.Default(ctx, measure, tell)
		if err != nil {
			return t, err
		}
		t.Here = c.Curves
	}
	if t.Here == nil {
		t.Here = &curves.Curves{NsPerIter: curves.NsPerIter()}
	}
	if path == "" {
		t.There = curves.Reference().Carry(host.ModelMaxCPUs)
		return t, nil
	}
	c, err := LoadTarget(path)
	if err != nil {
		return t, err
	}
	t.There, t.Calibrated = c.Curves.Carry(host.ModelMaxCPUs), true
	t.Host, t.CPUModel = c.Host.Name, c.Host.CPUModel
	return t, nil
}

// LoadTarget reads the calibration at path, which must hold contention
// curves past one CPU.
func LoadTarget(path string) (calibrate.Calibration, error) {
	c, err := calibrate.Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, fmt.Errorf("%s: no such file; run brewput calibrate --out FILE on the machine predicted for", path)
	case err != nil:
		return c, err
	case c.Curves == nil || c.Curves.MaxCPUs() < 2:
		return c, fmt.Errorf("%s: holds no contention curves past one CPU; run this brewput's calibrate on the machine predicted for", path)
	}
	return c, nil
}

// Checked is how a kind's answers held on the kept many-core
// measurements: points their bands held, of all, and how far their
// points lay (×, geometric mean); Err where they were not checked.
type Checked struct {
	Held, Points int
	Err          float64
}

// Forecast is a prediction of a study's variants: the points predicted,
// the variants not predicted and why, and what the answer stands on.
type Forecast struct {
	Points       []results.Point
	NotPredicted []results.NotPredicted
	Kinds        map[string]curves.Kind // each variant's kind, read from its runs
	// Undecided are, by variant, the other kinds its runs read as, where
	// they lie on both sides of a boundary: its band is all their bands'.
	Undecided   map[string][]curves.Kind
	Checked     map[curves.Kind]Checked
	CheckedPast map[curves.Kind]Checked // on published tables past the reference curves' CPUs (curves.CheckedPast)
	Base        map[string]float64      // each variant's median throughput on one CPU
	// Disturbed of the Ran runs measured of the variants predicted were
	// disturbed (other processes took CPU while they ran).
	Disturbed, Ran int
}

// Options say what to predict: Variants of study Name on CPUs; and
// whether to KeepDisturbed runs (predict from them too) or leave them out.
type Options struct {
	Name          string
	Variants      []string
	CPUs          []int
	KeepDisturbed bool
}

// Predict predicts o.Variants on o.CPUs from their runs in measured, for t.
func Predict(o Options, measured []results.Point, t Target) (Forecast, error) {
	f := Forecast{Kinds: map[string]curves.Kind{}, Undecided: map[string][]curves.Kind{}, Checked: map[curves.Kind]Checked{},
		CheckedPast: map[curves.Kind]Checked{}, Base: map[string]float64{}}
	for _, v := range o.Variants {
		runs := slices.DeleteFunc(slices.Clone(measured), func(p results.Point) bool { return p.Mode != v })
		np, ok := tooDisturbed(runs)
		if !ok && !o.KeepDisturbed {
			np.Mode = v
			f.NotPredicted = append(f.NotPredicted, np)
			continue
		}
		f.Ran += len(runs)
		quiet := slices.DeleteFunc(slices.Clone(runs), results.Point.IsDisturbed)
		if f.Disturbed += len(runs) - len(quiet); !o.KeepDisturbed {
			runs = quiet
		}
		if np, ok := unpredictable(runs, t.Here); !ok {
			np.Mode = v
			f.NotPredicted = append(f.NotPredicted, np)
			continue
		}
		f.Base[v] = medianOf(runs, 1).Throughput
		points, d, beyond, err := variant(v, runs, o.CPUs, t)
		if err != nil {
			return f, fmt.Errorf("%s: %w", v, err)
		}
		if beyond > 0 {
			f.NotPredicted = append(f.NotPredicted, results.NotPredicted{Mode: v, Why: results.DeclinedPastCurves, CPUs: beyond,
				Measured: t.There.MaxCPUs(), Reach: t.There.Reach()})
		}
		for i := range points {
			points[i].AsStudy(o.Name)
		}
		kind := d.Kind
		f.Points, f.Kinds[v] = append(f.Points, points...), kind
		if d.Undecided() {
			f.Undecided[v] = d.Others
		}
		held, all, e := curves.Checked(kind, t.Calibrated)
		f.Checked[kind] = Checked{Held: held, Points: all, Err: e}
		if held, all, e := curves.CheckedPast(kind); all > 0 && !t.Calibrated {
			f.CheckedPast[kind] = Checked{Held: held, Points: all, Err: e}
		}
	}
	return f, nil
}

// Unsettled is a variant whose runs read as more than one kind: the CPU
// count they are read on, and the kinds, the one at their median first.
type Unsettled struct {
	Variant string
	CPUs    int
	Kinds   []curves.Kind
}

// Undecided are o's variants whose runs in measured (their undisturbed
// ones, unless o.KeepDisturbed) read as more than one kind: more runs, on
// one CPU and the count their kind is read on, may decide them.
func Undecided(o Options, measured []results.Point, here *curves.Curves) []Unsettled {
	var out []Unsettled
	for _, v := range o.Variants {
		runs := slices.DeleteFunc(slices.Clone(measured), func(p results.Point) bool {
			return p.Mode != v || !o.KeepDisturbed && p.IsDisturbed()
		})
		b, err := curves.BenchOf(runs)
		if err != nil {
			continue
		}
		if d := curves.Decide(b, here); d.Undecided() {
			n, _, _ := curves.Shortfall(b, here)
			out = append(out, Unsettled{Variant: v, CPUs: n, Kinds: append([]curves.Kind{d.Kind}, d.Others...)})
		}
	}
	return out
}

// variant is variant's points on cpus from its runs: on a count measured,
// what was measured; up to this machine's CPUs, as its curves carry it;
// past them, as the target's do. It returns the points, and the first
// count the curves do not reach (0 where none was): none past it is
// predicted.
func variant(variant string, runs []results.Point, cpus []int, t Target) ([]results.Point, curves.Decision, int, error) {
	b, err := curves.BenchOf(runs)
	if err != nil {
		return nil, curves.Decision{}, 0, err
	}
	one := medianOf(runs, 1)
	var out []results.Point
	d := curves.Decide(b, t.Here)
	kind := d.Kind
	for _, n := range cpus {
		r, measured := b.Measured[n]
		if !measured {
			there := t.There
			if n <= runtime.NumCPU() && n <= t.Here.MaxCPUs() {
				there = t.Here // this machine's own, measured
			}
			var ok bool
			if r, _, ok = curves.Predict(b, t.Here, there, n); !ok {
				return out, d, n, nil
			}
		}
		out = append(out, results.Point{Kind: results.KindStudy, Source: results.SourceModel,
			Spec:       results.Spec{Mode: variant, CPUs: n, Load: results.Load{Par: n * max(one.Par, 1) / max(one.CPUs, 1), Dur: one.Dur}},
			Throughput: one.Throughput * r.Mid, Unit: one.Unit, Host: one.Host,
			Band: &results.Band{Throughput: [2]float64{one.Throughput * r.Lo, one.Throughput * r.Hi}, Shape: string(kind),
				Undecided: collect.Mapped(d.Others, func(k curves.Kind) string { return string(k) })},
			Study: &results.Study{Name: one.StudyName()}})
	}
	return out, d, 0, nil
}

// medianOf is the run of median throughput on n CPUs.
func medianOf(runs []results.Point, n int) results.Point {
	at := slices.DeleteFunc(slices.Clone(runs), func(p results.Point) bool { return p.CPUs != n })
	slices.SortFunc(at, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
	return at[(len(at)-1)/2]
}

// Counts are the CPU counts runs were measured on, in their order.
func Counts(runs []results.Point) []int {
	var out []int
	for _, p := range runs {
		if !slices.Contains(out, p.CPUs) {
			out = append(out, p.CPUs)
		}
	}
	return out
}

// tooDisturbed says, as results.TooDisturbed decides, on which CPU count
// the runs are too disturbed to predict from; ok where none is.
func tooDisturbed(runs []results.Point) (np results.NotPredicted, ok bool) {
	for _, n := range Counts(runs) {
		at := slices.DeleteFunc(slices.Clone(runs), func(p results.Point) bool { return p.CPUs != n })
		if disturbed, too := results.TooDisturbed(at); too {
			return results.NotPredicted{Why: results.DeclinedDisturbed, CPUs: n, Disturbed: disturbed, Runs: len(at)}, false
		}
	}
	return np, true
}

// unpredictable says why a variant's runs cannot be predicted; ok where
// they can: its speed-ups stand on one CPU's runs, its kind on a count
// past one, where a shared lock and private ones differ, and a loss no
// lock or allocation seen explains is not carried.
func unpredictable(runs []results.Point, here *curves.Curves) (np results.NotPredicted, ok bool) {
	one, more := false, false
	for _, p := range runs {
		one = one || p.CPUs == 1 && p.Throughput > 0
		more = more || p.CPUs > 1 && p.Throughput > 0
	}
	switch {
	case !one:
		return results.NotPredicted{Why: results.DeclinedNoOneCPU}, false
	case !more:
		return results.NotPredicted{Why: results.DeclinedOneCPUOnly}, false
	}
	b, err := curves.BenchOf(runs)
	if err != nil || curves.Of(b, here) != curves.Unexplained {
		return np, true
	}
	n, made, alone := curves.Shortfall(b, here)
	return results.NotPredicted{Why: results.DeclinedUnexplained, CPUs: n, Made: made, Alone: alone}, false
}
