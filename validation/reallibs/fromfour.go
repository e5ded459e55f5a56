package main

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/benchtext"
	"github.com/brewput/brewput/validation/internal/tally"
)

// fourCounts are the counts measured where a machine has four CPUs, and
// past is what is predicted from them.
var fourCounts, pastFour = []int{1, 2, 4}, []int{8, 16}

// fromFour tallies predict's answer where the machine measured had four
// CPUs, as --measure's default then measures: for each lending and each
// benchmark both it and this machine measured, the lending's own runs on
// 1, 2 and 4 CPUs (plain go test -bench), each carrying the locks and
// waits watched here on 2 CPUs (their holds and waits in the lending's
// time, its time an operation over this machine's), predicted on 8 and 16
// CPUs for the reference machine, the measuring machine's curves lending
// Q's calibration (a 16-vCPU machine like the others), against what the
// lending made there; its naive guess is what 4 CPUs made, held.
func fromFour(bin, root, dir string) (tally.Stats, int, int, error) {
	var s tally.Stats
	config, err := os.MkdirTemp("", "reallibs-four")
	if err != nil {
		return s, 0, 0, err
	}
	defer os.RemoveAll(config)
	cal, err := os.ReadFile(filepath.Join(root, "validation", "testdata", calibrated, "calibration.json"))
	if err == nil {
		err = os.MkdirAll(filepath.Join(config, "brewput"), 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(config, "brewput", "calibration.json"), cal, 0o644)
	}
	if err != nil {
		return s, 0, 0, err
	}
	var here []results.Point // every package's measured here
	for _, p := range pkgs {
		file, err := plain(filepath.Join(dir, p.file), config)
		if err != nil {
			return s, 0, 0, err
		}
		ps, err := results.ReadFiles(file)
		if err != nil {
			return s, 0, 0, err
		}
		here = append(here, ps...)
	}
	// One file, one predict: each lending's runs as benchmarks of their
	// own, "M:Cache/…", of one package.
	var points []results.Point
	runs := map[string]map[string]map[int][]float64{} // by lending's letter
	for _, l := range lendings {
		runs[l.letter] = map[string]map[int][]float64{}
		for _, f := range []string{"libraries.txt", "trials.txt", "round2.txt"} {
			path := filepath.Join(root, "validation", "testdata", l.dir, f)
			if !exists(path) {
				continue
			}
			m, err := benchtext.Runs(path, nil)
			if err != nil {
				return s, 0, 0, err
			}
			for k, v := range m {
				runs[l.letter][k] = v
			}
		}
		for _, p := range fourPoints(here, runs[l.letter]) {
			p.Mode = l.letter + ":" + p.Mode
			b := *p.Bench
			b.Name, b.Pkg = "Benchmark"+p.Mode, "example.com/fromfour"
			p.Bench = &b
			points = append(points, p)
		}
	}
	path := filepath.Join(config, "fromfour.json")
	f, err := os.Create(path)
	if err == nil {
		err = results.Write(f, results.JSON, points)
		err = cmp.Or(f.Close(), err)
	}
	if err != nil {
		return s, 0, 0, err
	}
	cmd := exec.Command(bin, "predict", "--from", path, "--cpus", "1,2,4,8,16", "--format", "json")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config, "HOME="+config)
	out, err := output(cmd)
	if err != nil {
		return s, 0, 0, fmt.Errorf("predicting from the lendings' 1-4 CPUs: %v", err)
	}
	got, skipped, err := readPredicted(out)
	if err != nil {
		return s, 0, 0, err
	}
	for _, mode := range sortedKeys(got) {
		letter, name, _ := strings.Cut(mode, ":")
		row, byCPUs := got[mode], runs[letter][name]
		row.two = results.Median(byCPUs[1]) / results.Median(byCPUs[4]) // naive: 4 CPUs' speed-up, held
		for _, n := range pastFour {
			if _, ok := row.at[n]; ok && len(byCPUs[n]) > 0 {
				add(&s, row, n, results.Median(byCPUs[1])/results.Median(byCPUs[n]), fmt.Sprintf("%s on %d, %s", name, n, letter))
			}
		}
	}
	return s, len(got) + len(skipped), len(got), nil
}

// fourPoints are, for each benchmark measured here (its watched, measured
// points) that runs holds on 1, 2, 4 and more CPUs, a point per run of
// runs on 1, 2 and 4 CPUs: here's median run on 1 CPU, or on 2 for more,
// its throughput the run's, its locks' uses as many an operation, their
// holds and waits scaled by the run's time an operation on 1 CPU over
// here's.
func fourPoints(here []results.Point, runs map[string]map[int][]float64) []results.Point {
	by := map[string]map[int][]results.Point{}
	var names []string
	for _, p := range here {
		if p.Kind != results.KindBench || p.Source == results.SourceModel || p.Bench == nil || !p.Bench.Watched || p.IsDisturbed() {
			continue
		}
		if by[p.Mode] == nil {
			by[p.Mode] = map[int][]results.Point{}
			names = append(names, p.Mode)
		}
		by[p.Mode][p.CPUs] = append(by[p.Mode][p.CPUs], p)
	}
	var out []results.Point
	for _, name := range names {
		r := runs[name]
		if len(by[name][1]) == 0 || len(by[name][2]) == 0 || len(r[1]) == 0 || len(r[2]) == 0 || len(r[4]) == 0 || len(r[8])+len(r[16]) == 0 {
			continue
		}
		scale := results.Median(r[1]) / (1e9 / medianPoint(by[name][1]).Throughput) // the lending's time an operation over here's
		for _, n := range fourCounts {
			from := medianPoint(by[name][min(n, 2)])
			for rep, ns := range r[n] {
				out = append(out, asRun(from, n, rep+1, ns, scale))
			}
		}
	}
	return out
}

// asRun is from as a run on n CPUs of ns an operation, rep of its count.
func asRun(from results.Point, n, rep int, ns, scale float64) results.Point {
	p := from
	p.CPUs, p.Par, p.Rep, p.CPUSet = n, n, rep, ""
	p.Trust = results.Trust{}
	p.Throughput = 1e9 / ns
	ops := int64(p.Dur.Seconds() * p.Throughput)
	per := float64(ops) / float64(max(from.Ops, 1)) // the run's operations over here's
	p.Ops = ops
	b := *from.Bench
	b.Iters = ops
	b.Locks = slices.Clone(from.Bench.Locks)
	for i := range b.Locks {
		m := &b.Locks[i]
		m.Uses = int64(float64(m.Uses) * per)
		m.Reads = int64(float64(m.Reads) * per)
		m.BusyFrac *= per * scale
		m.MeanWaitMs *= scale
		m.FreeHoldNs *= scale
		m.AfterWaitHoldNs *= scale
	}
	p.Bench = &b
	p.Waits = slices.Clone(from.Waits)
	for i := range p.Waits {
		p.Waits[i].PerOpMs *= scale
	}
	p.Start = from.Start.Add(time.Duration(rep) * time.Second)
	return p
}

// medianPoint is the point of median throughput of ps.
func medianPoint(ps []results.Point) results.Point {
	s := slices.SortedFunc(slices.Values(ps), func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
	return s[(len(s)-1)/2]
}

// fourSaid says what fromFour found.
func fourSaid(s tally.Stats, benches, predicted int) string {
	return fmt.Sprintf("Measured instead on 1, 2 and 4 CPUs of each lending (its own runs, the locks as watched here), as "+
		"predict's --measure does on a 4-CPU machine, and predicted on 8 and 16 with Q's calibration as the measuring machine's: "+
		"of %d benchmark runs of a lending, %d predicted; of their %d points the bands hold %d (%.0f %%); %d lie more than 2× off; the point's error ×%.2f, "+
		"the naive guess's (4 CPUs' speed-up, held) ×%.2f; the median band is %.2f× wide.",
		benches, predicted, s.Points, s.In, 100*float64(s.In)/float64(max(s.Points, 1)), s.Off2, s.Err(), s.Naive(), s.Width())
}
