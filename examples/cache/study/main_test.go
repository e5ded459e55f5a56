package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/study"
	"github.com/brewput/brewput/results"
)

// childEnv makes the test binary this program (main), so that the study's
// command line re-executes it to measure each point, as it re-executes
// the built program.
const childEnv = "CACHE_STUDY_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
	}
	os.Setenv(childEnv, "1")
	os.Exit(m.Run())
}

// TestStudyRuns runs the program briefly, as CI does: every variant of
// one load on 1 (and 2) CPUs, 100 ms a point. It checks the structure of
// what comes out, never the timings: the table, the report's files, and
// each variant's meters as its points' machines.
func TestStudyRuns(t *testing.T) {
	cpus := "1"
	if runtime.NumCPU() >= 2 {
		cpus = "1,2"
	}
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	code := study.Run(context.Background(), cacheStudy(), []string{"--variants", "mutex-write,sharded-write,syncmap-write",
		"--cpus", cpus, "--dur", "100ms", "--warmup", "20ms", "--out", out}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
	for _, want := range []string{"mutex-write", "sharded-write", "syncmap-write", "most used meter", "mutex cache held"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, f := range []string{"index.html", "results.json", "results.csv", "throughput.svg", "latency.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil && (f == "index.html" || cpus != "1") {
			t.Error(err)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, never := range []string{"limits it", "What limits each mode", "shard it", "hold it for less"} {
		if bytes.Contains(page, []byte(never)) {
			t.Errorf("the report says %q of the user's code", never)
		}
	}
	if !bytes.Contains(page, []byte("What each variant measured")) || !bytes.Contains(page, []byte("No causal profile")) {
		t.Errorf("the report lacks the variants' section")
	}
	points, err := results.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	machines := map[string]int{"mutex-write": 1, "sharded-write": 16, "syncmap-write": 0}
	for _, p := range points {
		// No verdict on the user's code: its meters are described, not
		// read as what limits it. Ops are not checked to be positive: on
		// a machine others keep busy (go test -race ./... beside it), a
		// 100 ms window on 1 CPU can close with none counted.
		if p.Kind() != results.KindStudy || p.Study != "cache" || p.Ops < 0 || p.Bottleneck != nil {
			t.Errorf("%s cpus=%d: %+v", p.Mode, p.CPUs, p)
		}
		if len(p.Machines) != machines[p.Mode] {
			t.Errorf("%s: %d machines, want %d", p.Mode, len(p.Machines), machines[p.Mode])
		}
		// Uses are not checked: a window whose start the harness's clock
		// goroutine reached late on a busy machine reads the meters over
		// less time than it counts operations, possibly none.
		for _, m := range p.Machines {
			if m.Kind != meter.KindMutex || m.Uses < 0 || m.BusyFrac < 0 || m.BusyFrac > 1 {
				t.Errorf("%s: machine %+v", p.Mode, m)
			}
		}
	}
}
