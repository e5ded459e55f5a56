package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
)

// TestCalibrateFrom: calibrate --from infers the costs from a table of
// measured runs, keeps the costs they do not constrain from --base and
// saves a calibration named as inferred; model --calibration with it says
// in its footer, its setting line and every point's JSON which
// measurements its costs are for.
func TestCalibrateFrom(t *testing.T) {
	if race.Enabled {
		// Under the detector its simulations took 80 s of the race run (at load 11); they
		// are the model's, whose goroutines package model's tests run
		// under it, and what it asserts the plain run checks.
		t.Skip("the model's surfaces checked without the race detector: go test ./cmd/brewput")
	}
	emptyConfig(t)
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	us := time.Microsecond
	cal := calibrate.Calibration{Samples: 100, Repeats: 6, Date: time.Date(2026, 11, 22, 10, 38, 0, 0, time.UTC)}
	cal.Host.Name = "vm"
	cal.Costs = sim.Costs{Switch: 145, Wake: 75 * us, SpinWake: us, SpinWindow: 80 * us, MutexHandoff: 1200, ChanHandoff: 2900, BufChanHandoff: 2300, RunnextGrace: 60 * us}
	cal.Lo, cal.Hi = cal.Costs, cal.Costs
	if err := calibrate.Save(base, cal); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "inferred.json")
	stdout, stderr := succeeds(t, noChild(), "calibrate", "--from", "../../model/infer/testdata/talk.csv", "--base", base, "--out", out)
	for _, want := range []string{"for the costs inferred from talk.csv (4 points)", "saved: " + out, "brewput model --calibration " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "refused") || !strings.Contains(stderr, "open loop") {
		t.Errorf("the open-loop row not refused aloud:\n%s", stderr)
	}
	got, err := calibrate.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Inferred == nil || got.Inferred.Points != 4 || got.Inferred.Base.Host != "vm" || len(got.Inferred.Inferred)+len(got.Inferred.Kept) != 8 {
		t.Fatalf("saved %+v", got.Inferred)
	}
	args := []string{"--modes", "finelocking", "--cpus", "4", "--dur", "300ms", "--calibration", out}
	answer, _ := runModel(t, args...)
	if !strings.Contains(oneLine(answer), "Runtime costs: inferred from talk.csv (4 points).") {
		t.Errorf("the answer does not say which costs:\n%s", answer)
	}
	table, _ := runModel(t, append(args, "--format", "table")...)
	if !strings.Contains(oneLine(table), "for the costs inferred from talk.csv (4 points)") {
		t.Errorf("table's caption does not say which costs:\n%s", table)
	}
	p := modelPoints(t, args...)[0]
	if p.Calibration == nil || len(p.Calibration.InferredFrom) != 1 || p.Calibration.InferredFrom[0] != "talk.csv" || p.Calibration.Points != 4 {
		t.Errorf("point's calibration %+v", p.Calibration)
	}
	if p.Band == nil {
		t.Errorf("no band from the inferred costs' sets")
	}
}
