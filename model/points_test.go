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
