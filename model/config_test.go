package model

import (
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// TestBadConfig: configurations that cannot run are errors that say what
// is wrong.
func TestBadConfig(t *testing.T) {
	for _, c := range []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.Mode = "" }, "accepted: ideal, locking"},
		{func(c *Config) { c.Mode = "espresso-1" }, "takes no number"},
		{func(c *Config) { c.Mode = "multi" }, "must be a whole number ≥ 1"},
		{func(c *Config) { c.CPUs = 0 }, "cpus 0"},
		{func(c *Config) { c.Par = -1 }, "par is -1"},
		{func(c *Config) { c.Dur = 0 }, "dur is 0s"},
		{func(c *Config) { c.Warmup = -ms }, "warmup is -1ms"},
		{func(c *Config) { c.Steps.Press = -ms }, "press -1ms"},
		{func(c *Config) { c.Steps.Combine = -ms }, "combine -1ms"},
		{func(c *Config) { c.Rate = -1 }, "rate is -1"},
		{func(c *Config) { c.Rate = math.Inf(1) }, "rate +Inf"},
		{func(c *Config) { c.Rate = math.NaN() }, "rate NaN"},
		{func(c *Config) { c.MaxQ = -1 }, "maxq is -1"},
		{func(c *Config) { c.Policy.Sched = "lifo" }, `sched "lifo": want fifo or go`},
		{func(c *Config) { c.Costs.Wake = -ms }, "costs: Wake -1ms"},
		{func(c *Config) { c.Policy.Background = results.Background{CPUs: 3, Burst: ms} }, "background 3 CPUs: want from 0 to less than the 2 CPUs"},
		{func(c *Config) { c.Policy.Background = results.Background{CPUs: math.NaN(), Burst: ms} }, "background NaN CPUs"},
		{func(c *Config) { c.Policy.Background = results.Background{CPUs: 0.5} }, "background burst 0s"},
		{func(c *Config) {
			c.Policy.Sched, c.Policy.Background = "fifo", results.Background{CPUs: 0.5, Burst: ms}
		}, "applies to the go policy only"},
		{func(c *Config) { c.Steps.Grind, c.Steps.Press, c.Steps.Steam, c.Steps.Combine = 0, 0, 0, 0 }, "takes no virtual time"},
		{func(c *Config) { c.Steps.Grind, c.Steps.Press = 0, 0; c.Mode = "espresso" }, "takes no virtual time"},
		{func(c *Config) { c.Mode = "noop" }, "noop in a closed loop"},
	} {
		cfg := DefaultConfig(2)
		c.mod(&cfg)
		_, err := simulateOne(cfg, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", cfg, err, c.want)
		}
	}
}

// TestZeroStepsOpenLoop: a drink of no time is fine in an open loop, whose
// arrivals move the clock: every arrival is served at once.
func TestZeroStepsOpenLoop(t *testing.T) {
	for _, mode := range []string{"noop", "finelocking", "linearpipe-0"} {
		cfg := talk(mode, 2)
		cfg.Steps.Grind, cfg.Steps.Press, cfg.Steps.Steam, cfg.Steps.Combine = 0, 0, 0, 0
		cfg.Rate = 1000
		r := run(t, cfg)
		if r.Lattes != 1000 || r.Drops != 0 || r.Latency.Max != 0 {
			t.Errorf("%s: %d drinks, %d drops, latency up to %v; want 1000, 0, 0", mode, r.Lattes, r.Drops, r.Latency.Max)
		}
	}
}

// TestCustomersDefault: 0 customers means one per CPU, as --par 0.
func TestCustomersDefault(t *testing.T) {
	cfg := talk("locking", 3)
	a := run(t, cfg)
	cfg.Par = 3
	b := run(t, cfg)
	if a.Latency != b.Latency || a.point(talk("locking", 3)).Par != 3 {
		t.Errorf("0 customers on 3 CPUs: %+v; 3 customers: %+v", a.Latency, b.Latency)
	}
}
