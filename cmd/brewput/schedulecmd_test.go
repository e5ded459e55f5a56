package main

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
)

// TestOneDefaultPolicy: every command that simulates takes the same
// policy when --sched is left out.
func TestOneDefaultPolicy(t *testing.T) {
	root := newRoot(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	for _, name := range []string{"model", "advise", "why", "schedule"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		f := cmd.Flags().Lookup("sched")
		if f == nil {
			t.Errorf("brewput %s has no --sched", name)
			continue
		}
		if f.DefValue != model.DefaultSched {
			t.Errorf("brewput %s --sched defaults to %s; the model's default policy is %s", name, f.DefValue, model.DefaultSched)
		}
	}
}

// TestScheduleAgreesWithModel: brewput schedule, its policy left out,
// draws under the policy brewput model predicts with, and the share of
// the time its text says the CPUs ran steps is the utilization the model
// gives the same configuration: every CPU busy for multi-2 on 6 CPUs, two
// of six idle for finelocking, whose grinder allows one latte at a time.
func TestScheduleAgreesWithModel(t *testing.T) {
	config := emptyConfig(t)
	cal := calibrate.Calibration{Samples: 5, Costs: sim.Costs{Switch: 200, Wake: 20 * time.Microsecond, SpinWake: 15 * time.Microsecond,
		MutexHandoff: 300, ChanHandoff: time.Microsecond, BufChanHandoff: time.Microsecond, RunnextGrace: 60 * time.Microsecond}}
	file := filepath.Join(t.TempDir(), "cal.json")
	if err := calibrate.Save(file, cal); err != nil {
		t.Fatal(err)
	}
	ran := regexp.MustCompile(`The CPUs ran steps (\d+) %`)
	for _, mode := range []string{"multi-2", "finelocking"} {
		stdout, _ := succeeds(t, noChild(), "schedule", "--mode", mode, "--cpus", "6", "--calibration", file, "--out", t.TempDir())
		if want := mode + " on 6 CPUs, model (" + model.DefaultSched + ")"; !strings.HasPrefix(stdout, want) {
			t.Errorf("brewput schedule --mode %s --cpus 6 draws %q; want %q", mode, strings.SplitN(stdout, ":", 2)[0], want)
		}
		m := ran.FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("brewput schedule --mode %s: no share of steps in\n%s", mode, stdout)
		}
		points := modelPoints(t, "--modes", mode, "--cpus", "6", "--calibration", file, "--band=false")
		if len(points) != 1 {
			t.Fatalf("%d points", len(points))
		}
		if want := fmt.Sprintf("%.0f", 100*points[0].Util); m[1] != want {
			t.Errorf("%s on 6 CPUs: the schedule says the CPUs ran steps %s %% of the time, the model %s %%:\n%s", mode, m[1], want, stdout)
		}
	}
	assertEmptyDir(t, config, "--calibration was given")
}
