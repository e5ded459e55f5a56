// Package talk reads the talk's reference runs (its varycpu.csv and
// overload.csv: seven modes, four runs of each configuration) and predicts
// each of their points with brewput's model under the talk's harness and
// protocol, for the validation commands that hold the model against them
// (vstalk, heldout).
//
// Each run is simulated with its own steps: that run's ideal median
// latency at the same CPUs and load over 4, which the talk's README
// explains (its loop calibration made steps of 0.95–1.0 ms), steady or
// varying as much as that ideal's latency did (StepRule). A point's
// prediction is the median of its runs' predictions; its band spans
// theirs. An error is how far a prediction lies outside the band of the
// point's runs (0 inside).
package talk

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/runtimes"
)

// Tables are the talk's two tables, in the order they are read: CPU counts
// 1–6, then 6 CPUs under 10 to 10000 workers.
var Tables = [2]string{"varycpu", "overload"}

// Run is one row of the reference data.
type Run struct {
	Table     string // "varycpu" or "overload"
	Run       int
	Mode      string
	Par, CPUs int
	Dur       time.Duration
	Thru      float64 // lattes a second
	P25, P50  float64 // latency quartiles, ms
	P75       float64
	Util      float64 // the process's CPU time over wall time, in CPUs
}

// Point is one configuration with its runs.
type Point struct {
	Table, Mode string
	Par, CPUs   int
	Runs        []Run
	Steps       []coffee.Steps // per run, from ideal (Step)
	Background  []float64      // per run, from ideal: CPUs that others took
}

// Variant is one way of predicting.
type Variant struct {
	Name, Sched, Runtime string
	Bound                bool         // the analytic bound instead of a simulation
	Others               bool         // with each run's background (see Point.Background)
	Costs                sim.Costs    // the go policy's
	Range                *model.Range // their uncertainty, for its band
}

// Prediction is one variant's answer for one point.
type Prediction struct {
	Thr, P50         float64    // median over the runs' predictions
	ThrBand, P50Band [2]float64 // over the runs' bands (or their predictions)
	Banded           bool       // the simulations had bands (the go policy's)
}

// CheckRef tells what is wrong with the folder of the commands' -ref
// flag, if anything: it must be given and hold both of the talk's tables.
func CheckRef(dir string) error {
	if dir == "" {
		return fmt.Errorf("-ref DIR is required: the folder of the talk's reference runs (varycpu.csv, overload.csv)")
	}
	for _, table := range Tables {
		f, err := os.Open(filepath.Join(dir, table+".csv"))
		if err != nil {
			return fmt.Errorf("-ref %s: %w", dir, err)
		}
		f.Close()
	}
	return nil
}

// StepRule says how a run's steps are taken from its ideal at the same CPUs
// and load.
type StepRule int

const (
	Median  StepRule = iota // ideal's median over 4, steady
	Varying                 // Step: the median, varying as ideal did
	Nominal                 // 1 ms, steady, whatever ideal measured
)

// ReadPoints reads both tables in dir and groups their runs (Group).
func ReadPoints(dir string, rule StepRule) ([]*Point, error) {
	var pts []*Point
	for _, table := range Tables {
		rows, err := ReadRuns(filepath.Join(dir, table+".csv"), table)
		if err != nil {
			return nil, err
		}
		pts = append(pts, Group(rows, rule)...)
	}
	return pts, nil
}

// ReadRuns reads one of the talk's tables.
func ReadRuns(path, table string) ([]Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for _, need := range []string{"run", "mode", "par", "maxprocs", "dur", "thru", "p25", "p50", "p75", "util"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s: no column %q", path, need)
		}
	}
	var out []Run
	for _, r := range recs[1:] {
		var bad error
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(r[col[name]], 64)
			if err != nil && bad == nil {
				bad = fmt.Errorf("%s: %s %q: %v", path, name, r[col[name]], err)
			}
			return v
		}
		dur, err := time.ParseDuration(r[col["dur"]])
		if err != nil {
			return nil, fmt.Errorf("%s: dur %q: %v", path, r[col["dur"]], err)
		}
		run := Run{Table: table, Run: int(num("run")), Mode: r[col["mode"]], Par: int(num("par")),
			CPUs: int(num("maxprocs")), Dur: dur, Thru: num("thru"), P25: num("p25"), P50: num("p50"), P75: num("p75")}
		if bad != nil {
			return nil, bad
		}
		if run.Util, err = Util(r[col["util"]]); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, run)
	}
	return out, nil
}

// percent reads a column such as "579%" as 5.79.
// Util reads the talk's util column ("598%") as CPUs.
func Util(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 0, fmt.Errorf("util %q: %v", s, err)
	}
	return v / 100, nil
}

// Others is the CPUs other processes took from a run on cpus CPUs whose
// ideal used util of them.
func Others(cpus int, util float64) float64 { return max(0, float64(cpus)-util) }

// Step is the talk's steps as a run's ideal measured them at the same CPUs
// and load, from its latency's quartiles (ms): each ideal's median over 4,
// the machine steps drawn from a width (Jitter) that spreads the model's
// ideal, three machine steps and a combine, as much as the run's spread:
// the sum of three uniform draws has an interquartile range of 0.7057
// widths. The model's ideal spreads nothing without it (under overload
// too, with the go policy), so that all of the run's spread is the
// steps'.
func Step(p25, p50, p75 float64) coffee.Steps {
	s := time.Duration(p50 / 4 * float64(time.Millisecond))
	jitter := time.Duration(max(0, p75-p25) / 0.7057 * float64(time.Millisecond)).Round(time.Microsecond)
	return coffee.Steps{Grind: s, Press: s, Steam: s, Combine: s, Jitter: jitter}
}

// Group gathers the runs of each configuration and gives each run its
// steps, by rule, from that run's ideal at the same CPUs and load; and its
// background: the CPUs that run's ideal, which keeps every CPU busy, did
// not get at the same CPUs and load.
func Group(rows []Run, rule StepRule) []*Point {
	type key struct {
		mode      string
		par, cpus int
	}
	ideal := map[[3]int]Run{} // run, par, cpus
	for _, r := range rows {
		if r.Mode == "ideal" {
			ideal[[3]int{r.Run, r.Par, r.CPUs}] = r
		}
	}
	var order []key
	byKey := map[key]*Point{}
	for _, r := range rows {
		k := key{r.Mode, r.Par, r.CPUs}
		p := byKey[k]
		if p == nil {
			p = &Point{Table: r.Table, Mode: r.Mode, Par: r.Par, CPUs: r.CPUs}
			byKey[k] = p
			order = append(order, k)
		}
		step, bg := coffee.DefaultSteps(), 0.0
		if i, ok := ideal[[3]int{r.Run, r.Par, r.CPUs}]; ok {
			if rule != Nominal {
				step = Step(i.P25, i.P50, i.P75)
			}
			if rule != Varying {
				step.Jitter = 0
			}
			bg = Others(r.CPUs, i.Util)
		}
		p.Runs = append(p.Runs, r)
		p.Steps = append(p.Steps, step)
		p.Background = append(p.Background, bg)
	}
	out := make([]*Point, len(order))
	for i, k := range order {
		out[i] = byKey[k]
	}
	return out
}

// PredictAll predicts every point under every variant, keyed by the
// point's and the variant's index, one simulation at a time per CPU; on a
// failure it returns the first error.
func PredictAll(pts []*Point, variants []Variant, burst time.Duration) (map[[2]int]Prediction, error) {
	type job struct{ p, v int }
	out := map[[2]int]Prediction{}
	var firstErr error
	var mu sync.Mutex
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for j := range jobs {
				pr, err := Predict(pts[j.p], variants[j.v], burst)
				mu.Lock()
				out[[2]int{j.p, j.v}] = pr
				if err != nil && firstErr == nil {
					firstErr = err
				}
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
	return out, firstErr
}

// Predict simulates p under v once per run, with that run's step and
// duration, and gathers the answers. burst is the other processes' bursts
// of work, for a variant with others.
func Predict(p *Point, v Variant, burst time.Duration) (Prediction, error) {
	var thrs, p50s []float64
	pr := Prediction{ThrBand: [2]float64{math.Inf(1), math.Inf(-1)}, P50Band: [2]float64{math.Inf(1), math.Inf(-1)}}
	widen := func(b *[2]float64, lo, hi float64) { b[0], b[1] = min(b[0], lo), max(b[1], hi) }
	for i, r := range p.Runs {
		cfg := model.Config{
			Spec: results.Spec{Mode: p.Mode, CPUs: p.CPUs, Load: results.Load{Par: p.Par, Harness: "talk", Dur: r.Dur},
				// The talk's steps burn a counted loop: CPU time.
				Policy: results.Policy{Sched: v.Sched, Burn: "cpu", Seed: 1}},
			Steps: p.Steps[i],
			Drain: true,
		}
		var err error
		if cfg.Quirks, err = runtimes.Quirks(v.Runtime); err != nil {
			return pr, err
		}
		if v.Bound {
			st, err := model.StructureOf(cfg)
			if err != nil {
				return pr, err
			}
			b := st.Bounds(p.CPUs, p.Par, 0)
			thr := b.ThroughputMax
			// The least median latency a closed loop allows: one drink's
			// critical path, or the customers' turn at the throughput
			// bound, whichever is longer.
			p50 := max(b.LatencyMin.Seconds(), float64(p.Par)/thr) * 1000
			thrs, p50s = append(thrs, thr), append(p50s, p50)
			widen(&pr.ThrBand, thr, thr)
			widen(&pr.P50Band, p50, p50)
			continue
		}
		if v.Sched == "go" {
			cfg.Costs, cfg.Range = v.Costs, v.Range
			if v.Others {
				cfg.Policy.Background = results.Background{CPUs: p.Background[i], Burst: burst}
			}
		}
		out, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
		if err != nil {
			return pr, fmt.Errorf("%s %d cpus %d par: %w", p.Mode, p.CPUs, p.Par, err)
		}
		res := out[0]
		thr, p50 := res.Throughput, res.Latency.P50
		thrs, p50s = append(thrs, thr), append(p50s, p50)
		if b := res.Band; b != nil {
			pr.Banded = true
			widen(&pr.ThrBand, b.Throughput[0], b.Throughput[1])
			widen(&pr.P50Band, b.P50Ms[0], b.P50Ms[1])
		} else {
			widen(&pr.ThrBand, thr, thr)
			widen(&pr.P50Band, p50, p50)
		}
	}
	pr.Thr, pr.P50 = results.Median(thrs), results.Median(p50s)
	return pr, nil
}

// RunsBand is the least and the most of the point's runs' values.
func RunsBand(p *Point, f func(Run) float64) [2]float64 {
	b := [2]float64{math.Inf(1), math.Inf(-1)}
	for _, r := range p.Runs {
		b[0], b[1] = min(b[0], f(r)), max(b[1], f(r))
	}
	return b
}

// Distance is how far x lies outside band b, relative to the nearer edge;
// 0 inside.
func Distance(x float64, b [2]float64) float64 {
	switch {
	case x < b[0]:
		return (b[0] - x) / b[0]
	case x > b[1]:
		return (x - b[1]) / b[1]
	}
	return 0
}

// Overlaps reports whether bands a and b share a value.
func Overlaps(a, b [2]float64) bool { return a[0] <= b[1] && b[0] <= a[1] }

// Thru and P50 are a run's throughput and median latency, for RunsBand.
func Thru(r Run) float64 { return r.Thru }
func P50(r Run) float64  { return r.P50 }

// Stats are a group of points' errors under one variant.
type Stats struct {
	ThrD, P50D         []float64 // each point's Distance from its runs' band
	ThrCover, P50Cover int       // points whose prediction's band overlaps the runs'
	ThrWidth, P50Width []float64 // each band's width over its prediction
	N                  int
	WorstThr, WorstP50 string // the farthest point, and its figures
}

// Add counts point p with its prediction pr.
func (s *Stats) Add(p *Point, pr Prediction) {
	tb, pb := RunsBand(p, Thru), RunsBand(p, P50)
	dt, dp := Distance(pr.Thr, tb), Distance(pr.P50, pb)
	if len(s.ThrD) == 0 || dt > slices.Max(s.ThrD) {
		s.WorstThr = fmt.Sprintf("%s@%d/%d: %.4g vs %.4g–%.4g", p.Mode, p.CPUs, p.Par, pr.Thr, tb[0], tb[1])
	}
	if len(s.P50D) == 0 || dp > slices.Max(s.P50D) {
		s.WorstP50 = fmt.Sprintf("%s@%d/%d: %.4g vs %.4g–%.4g", p.Mode, p.CPUs, p.Par, pr.P50, pb[0], pb[1])
	}
	s.ThrD, s.P50D = append(s.ThrD, dt), append(s.P50D, dp)
	if Overlaps(pr.ThrBand, tb) {
		s.ThrCover++
	}
	if Overlaps(pr.P50Band, pb) {
		s.P50Cover++
	}
	s.ThrWidth = append(s.ThrWidth, (pr.ThrBand[1]-pr.ThrBand[0])/pr.Thr)
	s.P50Width = append(s.P50Width, (pr.P50Band[1]-pr.P50Band[0])/pr.P50)
	s.N++
}
