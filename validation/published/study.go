package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/model/forecast"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/cmdline"
)

// studyFrom is the CPU counts a user's prediction is made from: what a
// two-CPU machine would measure.
var studyFrom = []int{1, 2}

// studies are the studies measured on the many-core machine
// (validation/manycore/studypoints.sh): their results files in
// testdata/manycore and each held-out lending's folder, and the study's
// name.
var studies = []struct{ file, name, pkg string }{
	{"cache-study.jsonl", "cache", "examples/cache"},
	{"truth-study.jsonl", "truth", "validation/truth"},
}

// reportStudy writes a study measured on a many-core machine (file, in
// testdata/dir: its point command on every CPU count) beside what
// brewput study … predict makes of its points on 1 and 2 CPUs there,
// under that machine's calibration and shape, as a user who measured two
// CPUs and asked for sixteen would see it; speed-ups against one CPU, the
// band's against the point predicted on one. It returns the points past
// the CPUs the model was made from.
func reportStudy(w io.Writer, root, dir, file, name, pkg string, first int) ([]point, int) {
	data := filepath.Join(root, "validation", "testdata", dir)
	all, err := results.ReadFiles(filepath.Join(data, file))
	cmdline.Check(err)
	var from []results.Point
	var variants []string
	var cpus []int
	runs := map[string]map[int][]float64{}
	for _, p := range all {
		if p.IsModel() {
			continue
		}
		if slices.Contains(studyFrom, p.CPUs) {
			from = append(from, p)
		}
		if !slices.Contains(variants, p.Mode) {
			variants = append(variants, p.Mode)
		}
		if !slices.Contains(cpus, p.CPUs) {
			cpus = append(cpus, p.CPUs)
		}
		if runs[p.Mode] == nil {
			runs[p.Mode] = map[int][]float64{}
		}
		runs[p.Mode][p.CPUs] = append(runs[p.Mode][p.CPUs], p.Throughput)
	}
	slices.Sort(cpus)
	// Predict's "this" machine is one socket of single-threaded cores,
	// as many as the point's Ps: the measured machine, where lscpu says so.
	cal, err := calibrate.Load(filepath.Join(data, "calibration.json"))
	cmdline.Check(err)
	if hw := measuredHardware(data, cal); hw.Shape.Sockets != 1 || hw.Shape.ThreadsPerCore != 1 {
		cmdline.Fail(fmt.Errorf("%s: the machine is %d × %d × %d; predict's \"this\" machine is one socket of single-threaded cores",
			file, hw.Shape.Sockets, hw.Shape.CoresPerSocket, hw.Shape.ThreadsPerCore))
	}
	// Measured there, predicted there: that machine's kind's curves, the
	// reference's, on both sides.
	ref := curves.Reference()
	fc, err := forecast.Predict(forecast.Options{Name: name, Variants: variants, CPUs: cpus}, from, forecast.Target{Here: ref, There: ref})
	predicted := fc.Points
	cmdline.Check(err)
	fmt.Fprintf(w, "\n%s's study measured there (its point command, %v a point,\n", pkg, all[0].Dur)
	fmt.Fprintf(w, "%s) against brewput study … predict made of its points on 1 and\n", format.Count(len(runs[variants[0]][cpus[0]]), "run"))
	fmt.Fprintf(w, "2 CPUs there, under that machine's calibration and shape\n")
	var out []point
	i := first
	for _, v := range variants {
		var got []point
		one := results.Median(runs[v][1])
		base := slices.IndexFunc(predicted, func(p results.Point) bool { return p.Mode == v && p.CPUs == 1 })
		if base < 0 {
			continue
		}
		for _, n := range cpus[1:] {
			j := slices.IndexFunc(predicted, func(p results.Point) bool { return p.Mode == v && p.CPUs == n })
			pr := predicted[j]
			p := point{cores: n, published: results.Median(runs[v][n]) / one, predicted: pr.Throughput / predicted[base].Throughput}
			p.lo, p.hi = p.predicted, p.predicted
			if b := pr.Band; b != nil {
				p.lo = min(p.lo, b.Throughput[0]/predicted[base].Throughput)
				p.hi = max(p.hi, b.Throughput[1]/predicted[base].Throughput)
			}
			p.inBand = p.published >= p.lo/(1+slack) && p.published <= p.hi*(1+slack)
			p.off = max(p.predicted/p.published, p.published/p.predicted)
			p.width = p.hi / p.lo
			p.rough, p.line, p.lockstep = noted(pr)
			got = append(got, p)
		}
		i++
		fmt.Fprintf(w, "\nS%d. %s\n", i, v)
		printPoints(w, got, "measured")
		for _, p := range got {
			if !slices.Contains(studyFrom, p.cores) {
				out = append(out, p)
			}
		}
	}
	for _, np := range fc.NotPredicted {
		fmt.Fprintf(w, "\n%s\n", format.Wrap("not predicted: "+np.Mode+": "+text.NotPredictedReason(np), 80, "  "))
	}
	return out, i
}

// noted is which of the model's notes a predicted point carries: a brief,
// busy lock's, a shared word's, a lockstep.
func noted(p results.Point) (rough, line, lockstep bool) {
	for _, c := range p.Caveats {
		switch c.Kind {
		case results.CaveatShortHold:
			rough = true
		case results.CaveatSharedLine:
			line = true
		case results.CaveatLockstep:
			lockstep = true
		}
	}
	return rough, line, lockstep
}
