package talk

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// TestGroupSteps checks that each run gets its own ideal's steps (its
// median over 4, its spread as Jitter) and background (the CPUs ideal did
// not get), and that a configuration's runs are gathered in one point.
func TestGroupSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "varycpu.csv")
	data := "run,mode,par,maxprocs,dur,thru,p25,p50,p75,util\n" +
		"1,ideal,2,2,4s,500,3.9,4.0,4.1,190%\n" +
		"2,ideal,2,2,4s,490,4.4,4.4,4.4,200%\n" +
		"1,locking,2,2,4s,250,7,8,9,100%\n" +
		"2,locking,2,2,4s,240,8,8.5,9,100%\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadRuns(path, "varycpu")
	if err != nil {
		t.Fatal(err)
	}
	pts := Group(rows, Varying)
	if len(pts) != 2 || pts[1].Mode != "locking" || len(pts[1].Runs) != 2 {
		t.Fatalf("grouped %d points, want ideal's and locking's with two runs each", len(pts))
	}
	lock := pts[1]
	want := []coffee.Steps{Step(3.9, 4.0, 4.1), Step(4.4, 4.4, 4.4)}
	if want[0].Grind != time.Millisecond || want[0].Jitter != 283*time.Microsecond || want[1].Combine != 1100*time.Microsecond || want[1].Jitter != 0 {
		t.Errorf("Step: %+v, want 1ms ± 141.5µs and 1.1ms steps (ideal's median ÷ 4, its quartiles 0.2 and 0 ms apart over 0.7057)", want)
	}
	if !slices.Equal(lock.Steps, want) {
		t.Errorf("steps %+v, want each run's ideal's %+v", lock.Steps, want)
	}
	if lock.Background[0] < 0.0999 || lock.Background[0] > 0.1001 || lock.Background[1] != 0 {
		t.Errorf("background %v, want 0.1 and 0 CPUs", lock.Background)
	}
	if b := RunsBand(lock, P50); b != [2]float64{8, 8.5} {
		t.Errorf("runs' p50 band %v, want [8 8.5]", b)
	}
	if nominal := Group(rows, Nominal); nominal[1].Steps[1] != coffee.DefaultSteps() {
		t.Errorf("nominal steps %+v, want 1ms, no jitter", nominal[1].Steps[1])
	}
	want[0].Jitter = 0
	if median := Group(rows, Median); !slices.Equal(median[1].Steps, want) {
		t.Errorf("steady steps %+v, want %+v", median[1].Steps, want)
	}

	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("run,mode,par,maxprocs,dur,thru,p25,p50,p75,util\n1,ideal,2,2,4s,x,4,4,4,100%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRuns(bad, "varycpu"); err == nil {
		t.Errorf("ReadRuns read a throughput of x")
	}
}

// TestDistance checks the distance outside a band, relative to its
// nearer edge, and overlap.
func TestDistance(t *testing.T) {
	b := [2]float64{100, 200}
	for _, c := range []struct{ x, want float64 }{{150, 0}, {100, 0}, {90, 0.1}, {220, 0.1}} {
		if got := Distance(c.x, b); got < c.want-1e-12 || got > c.want+1e-12 {
			t.Errorf("Distance(%v, %v) = %v, want %v", c.x, b, got, c.want)
		}
	}
	if !Overlaps(b, [2]float64{200, 300}) || Overlaps(b, [2]float64{201, 300}) {
		t.Errorf("Overlaps wrong at the edge 200")
	}
}

// TestStepSpread: the model's ideal under the talk's harness spreads
// nothing with steady steps, so that a run's ideal's spread is all the
// steps'; with Step's jitter it spreads as the run's ideal did (within
// 15 %, a simulation's sampling). Run 1: on 1 and 4 CPUs (fifo), quartiles
// 6 and 64 µs apart; under overload, 6 CPUs with 10 and 10000 customers
// (the go policy, the base calibration's costs: fifo's ideal does spread
// there), 18 and 36 µs apart.
func TestStepSpread(t *testing.T) {
	base, err := calibrate.Load(filepath.Join("..", "..", "..", "examples", "cache", "study", "testdata", "calibration.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table, sched string
		costs        sim.Costs
		pick         func(Run) bool
	}{
		{"varycpu", "fifo", sim.Costs{}, func(r Run) bool { return r.CPUs == 1 || r.CPUs == 4 }},
		{"overload", "go", base.Costs, func(r Run) bool { return r.Par == 10 || r.Par == 10000 }},
	} {
		rows, err := ReadRuns(filepath.Join("..", "..", "testdata", "talk", c.table+".csv"), c.table)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, r := range rows {
			if r.Run != 1 || r.Mode != "ideal" || !c.pick(r) {
				continue
			}
			checked++
			steps := Step(r.P25, r.P50, r.P75)
			steady := steps
			steady.Jitter = 0
			var cfgs []model.Config
			for _, s := range []coffee.Steps{steady, steps} {
				cfgs = append(cfgs, model.Config{Spec: results.Spec{Mode: "ideal", CPUs: r.CPUs, Load: results.Load{Par: r.Par, Harness: "talk", Dur: r.Dur},
					Policy: results.Policy{Sched: c.sched, Burn: "cpu", Seed: 1}}, Steps: s, Drain: true, Costs: c.costs})
			}
			out, err := model.Simulate(context.Background(), cfgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := r.P75 - r.P25
			if l := out[0].Latency; l.P75 != l.P25 {
				t.Errorf("%s: ideal on %d CPUs, %d customers, steady steps: quartiles %v and %v ms, want none apart", c.table, r.CPUs, r.Par, l.P25, l.P75)
			}
			if l := out[1].Latency; math.Abs(l.P75-l.P25-want) > 0.15*want {
				t.Errorf("%s: ideal on %d CPUs, %d customers, steps %v: quartiles %.4f ms apart, want the run's %.4f", c.table, r.CPUs, r.Par, steps, l.P75-l.P25, want)
			}
		}
		if checked != 2 {
			t.Errorf("%s: checked %d points of run 1's ideal, want 2", c.table, checked)
		}
	}
}
