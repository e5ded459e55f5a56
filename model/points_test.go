package model

import (
	"reflect"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// A prediction's point gives back the configuration that made it, but for
// the policy, which ConfigOf leaves to its caller, with its workers
// counted out, as the point stores them, and with the warm-up it
// simulated (one too short for the steady state is lengthened: here the
// open loop's none), which simulates the same again.
func TestConfigOf(t *testing.T) {
	for _, cfg := range []Config{
		talk("finelocking", 3),
		func() Config {
			c := talk("multi-2", 2)
			c.Par, c.Rate, c.MaxQ, c.Steps.Jitter, c.Warmup, c.Dur = 5, 800, 10, 200*time.Microsecond, 0, 300*ms
			return c
		}(),
		func() Config {
			c := talk("linearpipe-0", 2)
			c.Harness, c.Par = "talk", 4
			return c
		}(),
	} {
		r := run(t, cfg)
		p := r.point(cfg)
		got, ok := ConfigOf(p)
		want := cfg
		want.Policy, want.Par, want.Warmup = results.Policy{Burn: cfg.Policy.Burn}, cfg.Resolve().Par, r.Warmup
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("ConfigOf(point of %+v) = %+v, %v", want, got, ok)
		}
	}
	lab := results.Point{Kind: results.KindLab, Spec: results.Spec{Mode: "workloads/add/sequential", CPUs: 1}, Lab: &results.Lab{Name: "workloads"}}
	system := results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: "cafe", CPUs: 1}, Shop: &results.Shop{}}
	for _, p := range []results.Point{lab, system} {
		if _, ok := ConfigOf(p); ok {
			t.Errorf("ConfigOf(%s) is ok; it is not a mode of the shop", p.Mode)
		}
	}
}
