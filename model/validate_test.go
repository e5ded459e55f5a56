package model_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/brewput/brewput/calibrate"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/internal/race"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/sweep"
)

// TestGoPolicyAgainstMeasurement measures every mode on this machine's CPU
// counts (up to 2), in the talk's shop and in a critically loaded one where
// the grinder's bound equals the CPU bound on 2 CPUs, and checks the go
// policy's prediction against the measurement: within 10 % in throughput,
// and, beyond 5 %, no further from it than the analytic bound is
// (scripts/model-vs-measured.sh shows the same comparison with longer runs).
// The costs come from calibrate, measured here, never from the results.
//
// Where the measurement reaches the bound, the model can only lose: the
// unbuffered linearpipe-0 on 2 CPUs measures 490–498 lattes/s, while the go
// policy predicts about 467, as for linearpipe-1 (which measures 465–485).
// With steps of exactly 1 ms the simulated pipe falls into a lockstep where
// a readied stage waits on a busy P for the idle one to wake; a jitter of
// 10 µs, below what this test can see of a real step, breaks it (498). The
// real shop's timing noise does the same, which the model, given exact
// steps, does not invent. The difference stays within 10 %.
func TestGoPolicyAgainstMeasurement(t *testing.T) {
	if race.Enabled {
		t.Skip("timing under the race detector says nothing about the shop")
	}
	if testing.Short() {
		t.Skip("measures real points for about a minute")
	}
	cal := quietCalibration(t)
	ms := time.Millisecond
	shapes := []struct {
		name  string
		steps coffee.Steps
	}{
		{"talk", coffee.DefaultSteps()},
		{"critical", coffee.Steps{Grind: ms, Press: ms / 2, Steam: ms / 4, Combine: ms / 4}},
	}
	modes := []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-0", "linearpipe-1", "linearpipe-10", "splitpipe-1", "multipipe-2"}
	deadline := time.Now().Add(4 * time.Minute)
	for _, shape := range shapes {
		for _, mode := range modes {
			for cpus := 1; cpus <= min(2, runtime.NumCPU()); cpus++ {
				name := fmt.Sprintf("%s/%s/cpus=%d", shape.name, mode, cpus)
				t.Run(name, func(t *testing.T) {
					cfg := model.Config{
						Mode: mode, CPUs: cpus, Sched: "go", Costs: cal.Costs, Range: &model.Range{Lo: cal.Lo, Hi: cal.Hi}, Seed: 1,
						Grind: shape.steps.Grind, Press: shape.steps.Press, Steam: shape.steps.Steam, Combine: shape.steps.Combine,
						Warmup: 100 * ms, Duration: 5 * time.Second,
					}
					pred, err := model.Run(cfg)
					if err != nil {
						t.Fatal(err)
					}
					// Near a critical load the prediction turns on the costs'
					// uncertainty (the spin window above all): the model's
					// answer is its band over the calibration's intervals.
					preds := []float64{pred.Throughput, pred.Band.ThroughputLo, pred.Band.ThroughputHi}
					bound := pred.Bounds.ThroughputMax
					spec := sweep.Spec{Mode: mode, CPUs: cpus, Warmup: 50 * ms, Dur: 400 * ms, Steps: shape.steps}
					var last error
					quietFails := 0
					for quietFails < 3 {
						if time.Now().After(deadline) {
							if quietFails == 0 {
								t.Skip("machine too busy to compare with measurements")
							}
							break
						}
						if quiet.Probe(200*ms) > 0.3 {
							time.Sleep(time.Second)
							continue
						}
						before := quiet.Take()
						p, err := sweep.Measure(context.Background(), spec)
						if err != nil {
							t.Fatal(err)
						}
						others := quiet.Since(before)
						goTh := closest(preds, p.Throughput)
						dGo := (goTh - p.Throughput) / p.Throughput
						dBound := (bound - p.Throughput) / p.Throughput
						t.Logf("measured %.0f, go %.0f (%+.1f%%; %.0f over the band), bound %.0f (%+.1f%%), others %.2f CPUs",
							p.Throughput, goTh, 100*dGo, preds, bound, 100*dBound, others)
						switch {
						case math.Abs(dGo) > 0.10:
							last = fmt.Errorf("go policy %.0f lattes/s is %+.1f%% from the measured %.0f", goTh, 100*dGo, p.Throughput)
						case math.Abs(dGo) > 0.05 && math.Abs(dGo) > math.Abs(dBound)+0.02:
							last = fmt.Errorf("go policy %.0f lattes/s is further from the measured %.0f than the bound %.0f", goTh, p.Throughput, bound)
						default:
							return
						}
						if others > 0.3 {
							continue // void: the machine was busy
						}
						quietFails++
					}
					t.Fatal(last)
				})
			}
		}
	}
}

// quietCalibration measures the runtime's costs while the machine is left
// to this test: costs calibrated beside another busy process (a wake-up
// of 70 µs instead of a few) make every prediction wrong, and the
// comparison then says nothing about the model. It skips the test if no
// quiet calibration comes within two minutes.
func quietCalibration(t *testing.T) calibrate.Calibration {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if others := quiet.Probe(200 * time.Millisecond); others > 0.3 {
			time.Sleep(time.Second)
			continue
		}
		cal, err := calibrate.Measure(context.Background(), calibrate.Options{Samples: 50, Repeats: calibrate.Repeats})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("calibration: %+v (others %.2f CPUs)", cal.Costs, cal.Others)
		if cal.Others <= 0.3 {
			return cal
		}
	}
	t.Skip("machine too busy to calibrate: other processes took more than 0.3 CPUs during every attempt")
	return calibrate.Calibration{} // not reached: Skip ends the test
}

// closest returns the prediction nearest the measurement.
func closest(preds []float64, measured float64) float64 {
	best := preds[0]
	for _, x := range preds[1:] {
		if math.Abs(x-measured) < math.Abs(best-measured) {
			best = x
		}
	}
	return best
}
