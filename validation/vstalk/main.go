// Command vstalk holds brewput's model against the talk's own measurements:
// four runs of seven modes on 1–6 CPUs and, on 6 CPUs, with 10 to 10000
// customers, read from the folder -ref names (its varycpu.csv and
// overload.csv; the data are kept outside this repository, in
// shared/reference/talk beside it). model-vs-talk.sh runs it.
//
//	go run ./vstalk -ref ../../shared/reference/talk [-points] [-nominal]
//
// Every prediction simulates the talk's program — its harness (generator,
// workers, aggregator) and its protocol (requests handed out for the run's
// duration, 4 s or 10 s, then all served; throughput over the time to the
// last) — with each run's own step as input: that run's ideal median
// latency at that CPU count (or load) over 4, which the talk's README
// explains (its loop calibration made steps of 0.95–1.0 ms). Nothing is
// fitted: the go policy's costs come from brewput calibrate.
//
// For each point it compares, with the band of the four runs (inside it =
// no error): the fifo policy; the analytic bound; the go policy with
// today's runtime and with Go 1.9's (the talk's), each with its band over
// the costs' confidence intervals; and those two again with each run's
// other processes ("+others"): the CPUs that run's ideal did not get at the
// same CPUs and load (its util short of every CPU), simulated as bursts of
// -burst that cost the program only while it keeps every CPU busy (see
// Background in model/sim). Ideal's own throughput is then not a
// prediction: its util is the input. A point's prediction is the median of
// the four runs' predictions; its band spans theirs.
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/results"
)

// run is one row of the reference data.
type run struct {
	table     string // "varycpu" or "overload"
	run       int
	mode      string
	par, cpus int
	dur       time.Duration
	thru, p50 float64
	util      float64 // the process's CPU time over wall time, in CPUs
}

// point is one configuration with its runs.
type point struct {
	table, mode string
	par, cpus   int
	runs        []run
	steps       []time.Duration // per run, from ideal
	background  []float64       // per run, from ideal: CPUs that others took
}

// variant is one way of predicting.
type variant struct {
	name, sched, runtime string
	bound                bool
	others               bool                   // with each run's background (see point.background)
	cal                  *calibrate.Calibration // the go policy's costs
}

// prediction is one variant's answer for one point.
type prediction struct {
	thr, p50         float64    // median over the runs' predictions
	thrBand, p50Band [2]float64 // over the runs' bands (or their predictions)
	banded           bool
}

func main() {
	ref := flag.String("ref", "", "folder of the talk's varycpu.csv and overload.csv (required)")
	calPath := flag.String("calibration", "", "calibration file (default: brewput's, in the user's config folder)")
	points := flag.Bool("points", false, "print every point, not only the summary per mode")
	nominal := flag.Bool("nominal", false, "use 1 ms steps instead of each run's step")
	burst := flag.Duration("burst", time.Millisecond, "length of the other processes' bursts of work, for the variants with others")
	only := flag.String("only", "", "comma-separated variants to predict (default all: bound, fifo, go, go1.9, go+others, go1.9+others, and with -base go-base, go1.9-base)")
	cpus := flag.String("cpus", "", "comma-separated CPU counts of the varycpu table to compare (default all); the overload table is always compared")
	basePath := flag.String("base", "", "a second calibration, predicted beside -calibration's as the variants go-base and go1.9-base (such as this machine's beside one inferred by brewput calibrate --from)")
	flag.Parse()
	if err := checkRef(*ref); err != nil {
		fmt.Fprintln(os.Stderr, "vstalk:", err)
		os.Exit(2)
	}

	path := *calPath
	if path == "" {
		p, err := calibrate.DefaultPath()
		if err != nil {
			fail(err)
		}
		path = p
	}
	cal, err := calibrate.Load(path)
	if err != nil {
		fail(fmt.Errorf("%v (run brewput calibrate on a quiet machine first)", err))
	}
	var pts []*point
	for _, table := range []string{"varycpu", "overload"} {
		rows, err := readRuns(filepath.Join(*ref, table+".csv"), table)
		if err != nil {
			fail(err)
		}
		for _, p := range group(rows, *nominal) {
			if table == "varycpu" && *cpus != "" && !slices.Contains(strings.Split(*cpus, ","), strconv.Itoa(p.cpus)) {
				continue
			}
			pts = append(pts, p)
		}
	}
	variants := []variant{
		{name: "bound", bound: true},
		{name: "fifo", sched: "fifo"},
		{name: "go", sched: "go", cal: &cal},
		{name: "go1.9", sched: "go", runtime: "go1.9", cal: &cal},
		{name: "go+others", sched: "go", others: true, cal: &cal},
		{name: "go1.9+others", sched: "go", runtime: "go1.9", others: true, cal: &cal},
	}
	if *basePath != "" {
		base, err := calibrate.Load(*basePath)
		if err != nil {
			fail(err)
		}
		variants = append(variants, variant{name: "go-base", sched: "go", cal: &base}, variant{name: "go1.9-base", sched: "go", runtime: "go1.9", cal: &base})
		defer fmt.Printf("-base: %s\n", base.Ref().Line())
	}
	if *only != "" {
		variants = slices.DeleteFunc(variants, func(v variant) bool { return !slices.Contains(strings.Split(*only, ","), v.name) })
	}
	preds := predictAll(pts, variants, *burst)

	stepNote := "each run's step (its ideal median ÷ 4)"
	if *nominal {
		stepNote = "1 ms steps"
	}
	fmt.Printf("the talk's harness and protocol, %s; go policy: %s\n\n", stepNote, cal.Ref().Line())
	if *points {
		printPoints(pts, variants, preds)
	}
	summarize(pts, variants, preds)
}

// checkRef tells what is wrong with the -ref folder, if anything: it must
// be given and hold both of the talk's tables.
func checkRef(dir string) error {
	if dir == "" {
		return fmt.Errorf("-ref DIR is required: the folder of the talk's reference runs (varycpu.csv, overload.csv)")
	}
	for _, table := range []string{"varycpu", "overload"} {
		f, err := os.Open(filepath.Join(dir, table+".csv"))
		if err != nil {
			return fmt.Errorf("-ref %s: %w", dir, err)
		}
		f.Close()
	}
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "vstalk:", err)
	os.Exit(1)
}

// readRuns reads one of the talk's tables.
func readRuns(path, table string) ([]run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	var out []run
	for _, r := range recs[1:] {
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(r[col[name]], 64)
			if err != nil {
				fail(fmt.Errorf("%s: %s %q: %v", path, name, r[col[name]], err))
			}
			return v
		}
		dur, err := time.ParseDuration(r[col["dur"]])
		if err != nil {
			return nil, fmt.Errorf("%s: dur %q: %v", path, r[col["dur"]], err)
		}
		out = append(out, run{table: table, run: int(num("run")), mode: r[col["mode"]], par: int(num("par")),
			cpus: int(num("maxprocs")), dur: dur, thru: num("thru"), p50: num("p50"),
			util: percent(r[col["util"]])})
	}
	return out, nil
}

// percent reads a column such as "579%" as 5.79.
func percent(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		fail(fmt.Errorf("util %q: %v", s, err))
	}
	return v / 100
}

// group gathers the runs of each configuration and gives each run its
// step: that run's ideal median at the same CPUs and load over 4; and its
// background: the CPUs that run's ideal, which keeps every CPU busy, did
// not get at the same CPUs and load.
func group(rows []run, nominal bool) []*point {
	type key struct {
		mode      string
		par, cpus int
	}
	ideal := map[[3]int]run{} // run, par, cpus
	for _, r := range rows {
		if r.mode == "ideal" {
			ideal[[3]int{r.run, r.par, r.cpus}] = r
		}
	}
	var order []key
	byKey := map[key]*point{}
	for _, r := range rows {
		k := key{r.mode, r.par, r.cpus}
		p := byKey[k]
		if p == nil {
			p = &point{table: r.table, mode: r.mode, par: r.par, cpus: r.cpus}
			byKey[k] = p
			order = append(order, k)
		}
		step, bg := time.Millisecond, 0.0
		if i, ok := ideal[[3]int{r.run, r.par, r.cpus}]; ok {
			if !nominal {
				step = time.Duration(i.p50 / 4 * float64(time.Millisecond))
			}
			bg = max(0, float64(r.cpus)-i.util)
		}
		p.runs = append(p.runs, r)
		p.steps = append(p.steps, step)
		p.background = append(p.background, bg)
	}
	out := make([]*point, len(order))
	for i, k := range order {
		out[i] = byKey[k]
	}
	return out
}

// predictAll predicts every point under every variant, two simulations at
// a time per CPU.
func predictAll(pts []*point, variants []variant, burst time.Duration) map[[2]int]prediction {
	type job struct{ p, v int }
	out := map[[2]int]prediction{}
	var mu sync.Mutex
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for j := range jobs {
				pr := predict(pts[j.p], variants[j.v], burst)
				mu.Lock()
				out[[2]int{j.p, j.v}] = pr
				mu.Unlock()
			}
		})
	}
	for pi := range pts {
		for vi := range variants {
			jobs <- job{pi, vi}
		}
	}
	close(jobs)
	wg.Wait()
	return out
}

// predict simulates p under v once per run, with that run's step and
// duration, and gathers the answers.
func predict(p *point, v variant, burst time.Duration) prediction {
	var thrs, p50s []float64
	pr := prediction{thrBand: [2]float64{math.Inf(1), math.Inf(-1)}, p50Band: [2]float64{math.Inf(1), math.Inf(-1)}}
	widen := func(b *[2]float64, lo, hi float64) { b[0], b[1] = min(b[0], lo), max(b[1], hi) }
	for i, r := range p.runs {
		s := p.steps[i]
		cfg := model.Config{
			Spec: results.Spec{Mode: p.mode, CPUs: p.cpus, Load: results.Load{Par: p.par, Harness: "talk", Dur: r.dur},
				// The talk's steps burn a counted loop: CPU time.
				Policy: results.Policy{Sched: v.sched, Runtime: v.runtime, Burn: "cpu", Seed: 1}},
			Steps: coffee.Steps{Grind: s, Press: s, Steam: s, Combine: s},
			Drain: true,
		}
		if v.bound {
			st, err := model.StructureOf(cfg)
			if err != nil {
				fail(err)
			}
			b := st.Bounds(p.cpus, p.par, 0)
			thr := b.ThroughputMax
			// The least median latency a closed loop allows: one drink's
			// critical path, or the customers' turn at the throughput
			// bound, whichever is longer.
			p50 := max(b.LatencyMin.Seconds(), float64(p.par)/thr) * 1000
			thrs, p50s = append(thrs, thr), append(p50s, p50)
			widen(&pr.thrBand, thr, thr)
			widen(&pr.p50Band, p50, p50)
			continue
		}
		if v.sched == "go" {
			cfg.Costs, cfg.Range = v.cal.Costs, v.cal.Range()
			if v.others {
				cfg.Policy.Background = results.Background{CPUs: p.background[i], Burst: burst}
			}
		}
		out, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
		if err != nil {
			fail(fmt.Errorf("%s %d cpus %d par: %w", p.mode, p.cpus, p.par, err))
		}
		res := out[0]
		thr, p50 := res.Throughput, res.Latency.P50
		thrs, p50s = append(thrs, thr), append(p50s, p50)
		if b := res.Band; b != nil {
			pr.banded = true
			widen(&pr.thrBand, b.Throughput[0], b.Throughput[1])
			widen(&pr.p50Band, b.P50Ms[0], b.P50Ms[1])
		} else {
			widen(&pr.thrBand, thr, thr)
			widen(&pr.p50Band, p50, p50)
		}
	}
	pr.thr, pr.p50 = results.Median(thrs), results.Median(p50s)
	return pr
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// runsBand is the least and the most of the runs' values.
func runsBand(p *point, f func(run) float64) [2]float64 {
	b := [2]float64{math.Inf(1), math.Inf(-1)}
	for _, r := range p.runs {
		b[0], b[1] = min(b[0], f(r)), max(b[1], f(r))
	}
	return b
}

// distance is how far x lies outside band b, relative to the nearer edge;
// 0 inside.
func distance(x float64, b [2]float64) float64 {
	switch {
	case x < b[0]:
		return (b[0] - x) / b[0]
	case x > b[1]:
		return (x - b[1]) / b[1]
	}
	return 0
}

func overlaps(a, b [2]float64) bool { return a[0] <= b[1] && b[0] <= a[1] }

func thru(r run) float64 { return r.thru }
func p50(r run) float64  { return r.p50 }

func printPoints(pts []*point, variants []variant, preds map[[2]int]prediction) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "mode\ttable\tcpus\tpar\truns thr\truns p50\t")
	for _, v := range variants {
		fmt.Fprintf(w, "%s thr\t%s p50\t", v.name, v.name)
	}
	fmt.Fprintln(w)
	for pi, p := range pts {
		tb, pb := runsBand(p, thru), runsBand(p, p50)
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%.0f–%.0f\t%.3g–%.3g\t", p.mode, p.table, p.cpus, p.par, tb[0], tb[1], pb[0], pb[1])
		for vi, v := range variants {
			pr := preds[[2]int{pi, vi}]
			mark := func(x float64, b [2]float64, band [2]float64) string {
				s := fmt.Sprintf("%.4g", x)
				if d := distance(x, b); d > 0 {
					s += fmt.Sprintf(" (%+.1f%%)", 100*math.Copysign(d, x-b[0]))
				}
				if pr.banded && v.sched == "go" {
					s += fmt.Sprintf(" [%.4g–%.4g]", band[0], band[1])
					if !overlaps(band, b) {
						s += "!"
					}
				}
				return s
			}
			fmt.Fprintf(w, "%s\t%s\t", mark(pr.thr, tb, pr.thrBand), mark(pr.p50, pb, pr.p50Band))
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	fmt.Println()
}

// stats are a group of points' errors under one variant.
type stats struct {
	thrD, p50D         []float64
	thrCover, p50Cover int
	thrWidth, p50Width []float64
	n                  int
	worstThr, worstP50 string
}

func (s *stats) add(p *point, pr prediction) {
	tb, pb := runsBand(p, thru), runsBand(p, p50)
	dt, dp := distance(pr.thr, tb), distance(pr.p50, pb)
	if len(s.thrD) == 0 || dt > slices.Max(s.thrD) {
		s.worstThr = fmt.Sprintf("%s@%d/%d: %.4g vs %.4g–%.4g", p.mode, p.cpus, p.par, pr.thr, tb[0], tb[1])
	}
	if len(s.p50D) == 0 || dp > slices.Max(s.p50D) {
		s.worstP50 = fmt.Sprintf("%s@%d/%d: %.4g vs %.4g–%.4g", p.mode, p.cpus, p.par, pr.p50, pb[0], pb[1])
	}
	s.thrD, s.p50D = append(s.thrD, dt), append(s.p50D, dp)
	if overlaps(pr.thrBand, tb) {
		s.thrCover++
	}
	if overlaps(pr.p50Band, pb) {
		s.p50Cover++
	}
	s.thrWidth = append(s.thrWidth, (pr.thrBand[1]-pr.thrBand[0])/pr.thr)
	s.p50Width = append(s.p50Width, (pr.p50Band[1]-pr.p50Band[0])/pr.p50)
	s.n++
}

func summarize(pts []*point, variants []variant, preds map[[2]int]prediction) {
	type gk struct{ mode, table string }
	var keys []gk
	for _, p := range pts {
		if k := (gk{p.mode, p.table}); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.SortStableFunc(keys, func(a, b gk) int { return strings.Compare(a.table, b.table) })
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	for vi, v := range variants {
		fmt.Printf("%s:\n", v.name)
		w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(w, "mode\ttable\tpoints\tthr median\tthr worst\tp50 median\tp50 worst\tcovered thr\tcovered p50\twidth thr\twidth p50\t")
		all := &stats{}
		// "all but ideal": with others, ideal's util is an input.
		for _, k := range append(keys, gk{"all but ideal", ""}, gk{"all", ""}) {
			s := &stats{}
			for pi, p := range pts {
				if k.mode == "all" || (k.mode == "all but ideal" && p.mode != "ideal") || (p.mode == k.mode && p.table == k.table) {
					s.add(p, preds[[2]int{pi, vi}])
				}
			}
			if k.mode == "all" {
				all = s
			}
			fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d/%d\t%d/%d\t%s\t%s\t\n", k.mode, k.table, s.n,
				pct(results.Median(s.thrD)), pct(slices.Max(s.thrD)), pct(results.Median(s.p50D)), pct(slices.Max(s.p50D)),
				s.thrCover, s.n, s.p50Cover, s.n, pct(results.Median(s.thrWidth)), pct(results.Median(s.p50Width)))
		}
		w.Flush()
		off := 0
		for _, d := range all.thrD {
			if d > 0.05 {
				off++
			}
		}
		fmt.Printf("  worst throughput: %s; worst p50: %s; throughput off > 5 %%: %d of %d\n\n", all.worstThr, all.worstP50, off, all.n)
	}
}
