package model

import (
	"testing"
	"time"
)

// TestGoWallSteps: with steps that end on the clock, a step that sysmon cut
// short ends when the goroutine runs again, so a 20 ms slice (two ticks,
// with no timer slack here) ends 21 steps of 0.98 ms — the one it cut,
// whose time has passed, and the 20 that fit — where steps of CPU time
// end 20.4: ideal with 10 customers on one CPU makes 21 / 20 ms / 4 =
// 262.5 lattes/s against the CPU bound's 255.1. The band of a wall-step
// point reaches down to the CPU-time steps' answer.
func TestGoWallSteps(t *testing.T) {
	step := 980 * time.Microsecond
	cfg := DefaultConfig(1)
	cfg.Mode, cfg.Costs, cfg.Par = "ideal", fixedCosts(), 10
	cfg.Steps.Grind, cfg.Steps.Press, cfg.Steps.Steam, cfg.Steps.Combine = step, step, step, step
	cfg.Dur = 4 * time.Second
	cfg.Policy.Burn = "cpu"
	cpu := run(t, cfg)
	cfg.Policy.Burn = "wall"
	cfg.Range = &Range{Lo: cfg.Costs, Hi: cfg.Costs}
	wall := banded(t, cfg)
	if got := wall.Throughput; got < 260 || got > 263 {
		t.Errorf("wall steps: %.1f lattes/s, want about 262.5", got)
	}
	if got := cpu.Throughput; got < 253 || got > 256 {
		t.Errorf("CPU-time steps: %.1f lattes/s, want at most the CPU bound, 255.1", got)
	}
	if b := wall.Band; b == nil || b.ThroughputLo > cpu.Throughput || b.ThroughputHi < wall.Throughput {
		t.Errorf("wall steps' band %+v: want it to span %.1f (CPU-time steps) to %.1f", b, cpu.Throughput, wall.Throughput)
	}
}
