package sweep

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// Helpers of TestPinnedNeighbourDisturbs, this test binary re-executed:
// a busy loop, and a child that measures a point on the CPU it is pinned
// to and prints it.
const (
	busyLoopEnv    = "BREWPUT_BUSY_LOOP"
	pointHelperEnv = "BREWPUT_POINT_HELPER"
)

// TestPinnedNeighbourDisturbs: a busy loop pinned to the very CPU a
// 1-CPU point is pinned to takes about half of it, and the point is
// disturbed, though on a machine of 2 or more CPUs the machine as a whole
// had a CPU to spare for it (the rule of the machine's CPUs alone, others
// beyond the cores the point left free, would pass it). A busy machine
// around the test only adds to what the point's CPU lost, so the test
// holds beside other test binaries as well.
func TestPinnedNeighbourDisturbs(t *testing.T) {
	switch {
	case os.Getenv(busyLoopEnv) != "":
		for start := time.Now(); time.Since(start) < 20*time.Second; {
		}
		return
	case os.Getenv(pointHelperEnv) != "":
		spin := func() error {
			for start := time.Now(); time.Since(start) < 50*time.Microsecond; {
			}
			return nil
		}
		p, err := MeasureTarget(context.Background(), Target{Mode: "spin", Unit: "ops/s", Op: spin},
			Load{CPUs: 1, Load: results.Load{Par: 1, Warmup: 100 * time.Millisecond, Dur: time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		json.NewEncoder(os.Stdout).Encode(p)
		os.Exit(0) // the point is the last line: no PASS after it
	}
	if testing.Short() {
		t.Skip("measures for a second beside a busy loop")
	}
	cpu, err := PinTo(1, nil)
	if err != nil {
		t.Skip(err)
	}
	busy := exec.Command(os.Args[0], "-test.run=^TestPinnedNeighbourDisturbs$")
	busy.Env = append(os.Environ(), busyLoopEnv+"=1")
	if err := StartOn(busy, cpu); err != nil {
		t.Fatal(err)
	}
	defer busy.Wait()
	defer busy.Process.Kill()
	p, err := RunChild(context.Background(), os.Args[0], []string{"-test.run=^TestPinnedNeighbourDisturbs$"},
		[]string{pointHelperEnv + "=1"}, 1, time.Minute, struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cpuset %s: others took %.2f CPUs of the machine's %d, of its own %+v; util %.2f", p.CPUSet, p.OthersCPUs, p.Host.Cores, p.OnCPUs, p.Metrics[results.Util])
	if p.OnCPUs == nil || p.OnCPUs.CPUs != 1 {
		t.Fatalf("the point's own CPU was not read apart: %+v", p.OnCPUs)
	}
	if !p.IsDisturbed() || !p.Disturbed {
		t.Errorf("a busy loop sharing the point's pinned CPU %v (others took %.2f of it) left it undisturbed", cpu, p.OnCPUs.OthersCPUs)
	}
	if p.OnCPUs.OthersCPUs <= 0 {
		t.Errorf("a disturbed point keeps nothing of what disturbed it")
	}
}
