package model

import (
	"testing"

	"github.com/brewput/brewput/results"
)

// TestBackgroundCostsFullMachinesOnly: other processes' work slows a mode
// that keeps every CPU busy (ideal, one customer per CPU) by about their
// share, and leaves one that keeps a CPU free (locking, one CPU at a time)
// exactly as it was.
func TestBackgroundCostsFullMachinesOnly(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		lo, hi float64 // throughput with the background over without
	}{
		// 0.2 of 2 CPUs: about 10 % lost. Over the 1 s window some 100
		// bursts strike each CPU (Poisson, sd 10): three standard
		// deviations either side of 10 % is 7–13 %, inside 6–14 %.
		{"ideal", 0.86, 0.94},
		{"locking", 1, 1},
	} {
		cfg := DefaultConfig(2)
		cfg.Mode, cfg.Policy.Sched = tc.mode, "go"
		alone := run(t, cfg)
		cfg.Policy.Background = results.Background{CPUs: 0.2, Burst: ms}
		busy := run(t, cfg)
		if r := busy.Throughput / alone.Throughput; r < tc.lo || r > tc.hi {
			t.Errorf("%s: %.1f lattes/s with others taking 0.2 CPU, %.1f without: ratio %.3f, want %.2f to %.2f",
				tc.mode, busy.Throughput, alone.Throughput, r, tc.lo, tc.hi)
		}
	}
}
