package driver

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// These tests measure for real, each point in a child process, so they keep
// durations tiny and assert the structure of what comes back, never its
// numbers beyond "something was measured". They measure noop and
// finelocking only, which are free of data races (ideal is not), so that
// they pass under -race.

func TestRunJSONOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	stdout, stderr := succeeds(t, selfChild(),
		"run", "--modes", "noop,finelocking", "--cpus", "1", "--dur", "100ms", "--warmup", "20ms",
		"--noisy", "ok", "--format", "json", "--out", out)
	if !strings.Contains(stderr, "[1/2] noop cpus=1") || !strings.Contains(stderr, "[2/2] finelocking cpus=1") {
		t.Errorf("stderr shows no progress for both points:\n%s", stderr)
	}
	if !strings.Contains(stderr, "wrote 2 points to "+out) {
		t.Errorf("stderr does not say the file was written:\n%s", stderr)
	}
	// With --out, the table still goes to stdout.
	if !strings.Contains(stdout, "mode") || !strings.Contains(stdout, "finelocking") || strings.Contains(stdout, "{") {
		t.Errorf("stdout is not the table:\n%s", stdout)
	}

	if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("results file mode: %v, %v; want -rw-r--r-- like any file a user shares", info.Mode(), err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || lines[0] != `{"brewput":"results","schema":`+strconv.Itoa(results.Schema)+`}` {
		t.Fatalf("%s holds %d lines, want the schema's and 2:\n%s", out, len(lines), data)
	}
	for i, line := range lines[1:] {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		for _, k := range []string{"kind", "mode", "cpus", "cpuset", "par", "rate", "maxq", "dur_s", "ops", "drops", "throughput", "util", "latency_ms", "trust", "shop"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d has no key %q", i+1, k)
			}
		}
		lat, _ := m["latency_ms"].(map[string]any)
		for _, k := range []string{"min", "p05", "p25", "p50", "p75", "p90", "p95", "p99", "max"} {
			if _, ok := lat[k].(float64); !ok {
				t.Errorf("line %d: latency_ms has no number %q: %v", i+1, k, m["latency_ms"])
			}
		}
		shop, _ := m["shop"].(map[string]any)
		machines, ok := shop["machines"].([]any)
		if !ok {
			t.Errorf("line %d: shop.machines is %T, want a list", i+1, shop["machines"])
		}
		for _, mc := range machines {
			mm, _ := mc.(map[string]any)
			for _, k := range []string{"name", "uses", "busy_frac", "mean_wait_ms"} {
				if _, ok := mm[k]; !ok {
					t.Errorf("line %d: machine %v has no key %q", i+1, mc, k)
				}
			}
		}
		wantMachines := map[string]int{"noop": 0, "finelocking": 3}[m["mode"].(string)]
		if len(machines) != wantMachines {
			t.Errorf("line %d: %v has %d machines, want %d", i+1, m["mode"], len(machines), wantMachines)
		}
	}

	points, err := results.ReadJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ReadJSON: %v", err)
	}
	if len(points) != 2 || points[0].Mode != "noop" || points[1].Mode != "finelocking" {
		t.Fatalf("read back %d points, want noop then finelocking: %+v", len(points), points)
	}
	for _, p := range points {
		if p.CPUs != 1 || p.Par != 1 || p.Rate != 0 || p.MaxQ != 0 || p.Dur.Seconds() != 0.1 || p.Warmup.Seconds() != 0.02 {
			t.Errorf("%s: cpus %d par %d rate %v maxq %d dur %v warmup %v; want 1 1 0 0 0.1 0.02",
				p.Mode, p.CPUs, p.Par, p.Rate, p.MaxQ, p.Dur.Seconds(), p.Warmup.Seconds())
		}
		// A machine busy enough can starve a 100 ms window of every
		// latte; the two must agree either way.
		if p.Ops < 0 || (p.Ops > 0) != (p.Throughput > 0) {
			t.Errorf("%s: ops %d, throughput %v; want both positive or both zero", p.Mode, p.Ops, p.Throughput)
		}
		if p.CPUSet == "" || strings.ContainsAny(p.CPUSet, ",-") {
			t.Errorf("%s: cpuset %q, want one CPU", p.Mode, p.CPUSet)
		}
		if p.Source == "" || p.Host.GoVersion == "" || p.Start.IsZero() {
			t.Errorf("%s: source %q, go version %q, start %v; want all set", p.Mode, p.Source, p.Host.GoVersion, p.Start)
		}
		h, err := p.Histogram()
		if err != nil {
			t.Errorf("%s: %v", p.Mode, err)
			continue
		}
		if h.TotalCount() != p.Ops {
			t.Errorf("%s: histogram counts %d, ops %d", p.Mode, h.TotalCount(), p.Ops)
		}
	}
	// Every latte completed in the window used each machine once, in the
	// window unless it was one of the par lattes already under way when the
	// window opened: however slow the machine, uses ≥ ops − par.
	if p := points[1]; len(p.Machines()) == 3 {
		for _, mc := range p.Machines() {
			if mc.Name == "" || mc.Uses < p.Ops-int64(p.Par) {
				t.Errorf("finelocking machine %+v for %d lattes of %d customers: want a name and a use per latte", mc, p.Ops, p.Par)
			}
		}
	} else {
		t.Errorf("finelocking has %d machines, want 3", len(p.Machines()))
	}
	assertNoTemp(t, dir)
}

func TestRunCSVToStdout(t *testing.T) {
	t.Parallel()
	stdout, _ := succeeds(t, selfChild(),
		"run", "--modes", "noop,finelocking", "--cpus", "1", "--dur", "50ms", "--warmup", "10ms", "--noisy", "ok", "--format", "csv")
	records, err := csv.NewReader(strings.NewReader(stdout)).ReadAll() // refuses rows of unequal length
	if err != nil {
		t.Fatalf("stdout is not CSV: %v\n%s", err, stdout)
	}
	if len(records) != 3 {
		t.Fatalf("CSV has %d records, want a header and 2 rows:\n%s", len(records), stdout)
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[h] = i
	}
	for _, k := range []string{"mode", "cpus", "ops", "throughput", "latency_ms.p50", "machines"} {
		if _, ok := col[k]; !ok {
			t.Errorf("CSV header has no column %q: %v", k, records[0])
		}
	}
	if records[1][col["mode"]] != "noop" || records[2][col["mode"]] != "finelocking" {
		t.Errorf("CSV modes %q, %q; want noop, finelocking", records[1][col["mode"]], records[2][col["mode"]])
	}
	if n := strings.Count(records[2][col["machines"]], ";") + 1; n != 3 {
		t.Errorf("finelocking CSV row has %d machines, want 3: %q", n, records[2][col["machines"]])
	}
}

// TestInterruptKeepsWhatWasMeasured cancels a run after its first point and
// checks that the points measured so far are written, and nothing else.
func TestInterruptKeepsWhatWasMeasured(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var stdout syncBuffer
	stderr := syncBuffer{columns: unwrapped}
	done := make(chan int, 1)
	go func() {
		done <- runEnv(ctx, []string{"run", "--modes", "noop,noop,noop", "--cpus", "1",
			"--dur", "400ms", "--warmup", "0s", "--noisy", "ok", "--out", out},
			&env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, child: selfChild()})
	}()

	var code int
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case code = <-done:
			t.Fatalf("run ended (exit %d) before the test saw its first point; stderr:\n%s", code, stderr.String())
		case <-tick.C:
			if strings.Contains(stderr.String(), "[1/3]") {
				cancel()
				break wait
			}
		}
	}
	code = <-done

	if code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	last := lastLine(stderr.String())
	if !strings.HasPrefix(last, "brewput: ") || !strings.Contains(last, "interrupted") {
		t.Errorf("last line of stderr %q does not say brewput was interrupted", last)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatalf("interrupted run kept nothing: %v; stderr:\n%s", err, stderr.String())
	}
	defer f.Close()
	points, err := results.ReadJSON(f)
	if err != nil {
		t.Fatalf("ReadJSON: %v", err)
	}
	if len(points) < 1 || len(points) >= 3 {
		t.Errorf("interrupted run kept %d points, want 1 or 2", len(points))
	}
	if !strings.Contains(stdout.String(), "noop") {
		t.Errorf("stdout has no table of what was measured:\n%s", stdout.String())
	}
	assertNoTemp(t, dir)
}

// TestInterruptBeforeAnyPoint checks that a run cancelled before it measured
// anything fails and writes no file at all.
func TestInterruptBeforeAnyPoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, stderr := brewput(ctx, t, selfChild(),
		"run", "--modes", "noop", "--cpus", "1", "--dur", "50ms", "--out", filepath.Join(dir, "r.json"))
	if code != exitInterrupted || !strings.Contains(stderr, "brewput: interrupted after 0 of 1 points") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d and an interruption after 0 points", code, stderr, exitInterrupted)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("interrupted run with nothing measured left %d files, first %s", len(entries), entries[0].Name())
	}
}

// TestChildFailure checks that a child that cannot measure makes a
// failure (exit 1), not a usage error, and leaves no file.
func TestChildFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, stdout, stderr := brewput(context.Background(), t, noChild(),
		"run", "--modes", "noop", "--cpus", "1", "--dur", "50ms", "--out", filepath.Join(dir, "r.json"))
	if code != exitFailure {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitFailure, stderr)
	}
	if last := lastLine(stderr); !strings.HasPrefix(last, "brewput: ") || !strings.Contains(last, "noop cpus=1") {
		t.Errorf("last line of stderr %q does not name the point that failed", last)
	}
	if stdout != "" {
		t.Errorf("stdout:\n%s\nwant nothing", stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed run left %d files, first %s", len(entries), entries[0].Name())
	}
}

func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// assertNoTemp fails if dir holds a temporary file left by --out.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	tmps, err := filepath.Glob(filepath.Join(dir, "*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tmps) > 0 { // * matches a leading dot too
		t.Errorf("temporary files left behind: %v", tmps)
	}
}
