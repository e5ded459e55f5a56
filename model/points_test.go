package model

import (
	"reflect"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// A prediction's point gives back the configuration that made it, but for
// what ConfigOf leaves to its caller, and with the warm-up it simulated
// (Run lengthens one too short for the steady state: here the open loop's
// none), which simulates the same again.
func TestConfigOf(t *testing.T) {
	for _, cfg := range []Config{
		talk("finelocking", 3),
		func() Config {
			c := talk("multi-2", 2)
			c.Customers, c.Rate, c.MaxQ, c.Jitter, c.Warmup, c.Duration = 5, 800, 10, 200*time.Microsecond, 0, 300*ms
			return c
		}(),
		func() Config {
			c := talk("linearpipe-0", 2)
			c.Harness, c.Customers = "talk", 4
			return c
		}(),
	} {
		r := run(t, cfg)
		p := r.Point(cfg)
		got, ok := ConfigOf(p)
		want := cfg
		want.Sched, want.Seed, want.Warmup = "", 0, r.Warmup
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("ConfigOf(point of %+v) = %+v, %v", want, got, ok)
		}
	}
	lab := results.Point{Mode: "workloads/add/sequential", CPUs: 1, Lab: results.Lab{Name: "workloads"}}
	system := results.Point{Source: results.SourceModel, Mode: "cafe", CPUs: 1, Shop: &results.Shop{}}
	for _, p := range []results.Point{lab, system} {
		if _, ok := ConfigOf(p); ok {
			t.Errorf("ConfigOf(%s) is ok; it is not a mode of the shop", p.Mode)
		}
	}
}

// RunAll gives each configuration's point in order, as Run does one by
// one, and fails with the first configuration that fails.
func TestRunAll(t *testing.T) {
	var cfgs []Config
	for _, m := range []string{"locking", "finelocking", "multi-2", "linearpipe-1"} {
		for n := 1; n <= 3; n++ {
			cfgs = append(cfgs, talk(m, n))
		}
	}
	points, err := RunAll(cfgs)
	if err != nil || len(points) != len(cfgs) {
		t.Fatalf("RunAll: %d points, %v", len(points), err)
	}
	for i, cfg := range cfgs {
		if want := run(t, cfg).Point(cfg); !reflect.DeepEqual(points[i], want) {
			t.Errorf("point %d is not %s on %d CPUs", i, cfg.Mode, cfg.CPUs)
		}
	}
	bad := talk("noop", 1) // a closed-loop noop cannot advance
	if _, err := RunAll(append(cfgs, bad)); err == nil {
		t.Error("RunAll with a closed-loop noop: no error")
	}
	if ps, err := RunAll(nil); err != nil || len(ps) != 0 {
		t.Errorf("RunAll(nil) = %v, %v", ps, err)
	}
}

// RunRounds runs every configuration once a round, each round on the next
// seed, and numbers the rounds.
func TestRunRounds(t *testing.T) {
	cfgs := []Config{talk("finelocking", 1), talk("multi-2", 2)}
	for i := range cfgs {
		cfgs[i].Jitter = 300 * time.Microsecond
	}
	points, err := RunRounds(cfgs, 3)
	if err != nil || len(points) != 6 {
		t.Fatalf("%d points, %v; want 6", len(points), err)
	}
	for i, p := range points {
		cfg := cfgs[i%2]
		if p.Rep != i/2+1 || p.Seed != cfg.Seed+uint64(i/2) || p.Mode != cfg.Mode.String() {
			t.Errorf("point %d: %s rep %d seed %d", i, p.Mode, p.Rep, p.Seed)
		}
	}
	if one, _ := RunRounds(cfgs, 1); one[0].Rep != 0 {
		t.Errorf("one round: rep %d, want none", one[0].Rep)
	}
}
