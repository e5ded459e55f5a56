package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// These tests run brewput model and brewput calibrate. The model measures
// nothing, so they use noChild: a model that tried to measure would fail.
// Those that measure the Go runtime's costs (calibrate, or the go policy's
// default calibration) are not parallel: calibrate.Measure sets GOMAXPROCS
// for the whole process while it runs, and its numbers mean little on a
// machine busy with other tests. Non-parallel tests never run beside the
// parallel ones, which wait for them.

// goCosts are the go policy's eleven costs as flags: given all, the model
// needs no calibration.
var goCosts = []string{"--switch", "200ns", "--wake", "20us", "--mutex-handoff", "1us", "--chan-handoff", "1us", "--buf-chan-handoff", "1us", "--spin-wake", "1us", "--spin-window", "40us", "--runnext-grace", "3us", "--mutex-spin", "0s", "--runtime-lock", "0s", "--transfer", "0s"}

// runModel runs brewput model with args and fails the test unless it
// succeeds.
func runModel(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	return succeeds(t, noChild(), append([]string{"model"}, args...)...)
}

// modelPoints runs brewput model with args and --format json and reads the
// points back.
func modelPoints(t *testing.T, args ...string) []results.Point {
	t.Helper()
	stdout, _ := runModel(t, append(args, "--format", "json")...)
	points, err := results.ReadJSON(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("brewput model %q --format json: %v\n%s", args, err, stdout)
	}
	return points
}

// emptyConfig points the user's config folder at an empty folder of the
// test's own, so that the test sees whether brewput measures and saves the
// default calibration there. It returns the folder.
func emptyConfig(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	return dir
}

func assertEmptyDir(t *testing.T, dir, why string) {
	t.Helper()
	for _, name := range testkit.DirNames(t, dir) {
		t.Errorf("%s, yet %s was written", why, filepath.Join(dir, name))
	}
}

func TestModelSameSeedSameOutput(t *testing.T) {
	t.Parallel()
	for _, sched := range [][]string{append([]string{"--sched", "go"}, goCosts...), {"--sched", "fifo"}} {
		for _, format := range []string{"json", "table"} {
			t.Run(sched[1]+"/"+format, func(t *testing.T) {
				t.Parallel()
				args := append([]string{"--modes", "finelocking,linearpipe-1,multi-2", "--cpus", "1-3", "--dur", "200ms",
					"--jitter", "1ms", "--format", format}, sched...)
				first, stderr := runModel(t, append(args, "--seed", "7")...)
				if stderr != "" {
					t.Errorf("stderr:\n%s\nwant nothing", stderr)
				}
				if first == "" {
					t.Fatalf("no output")
				}
				again, _ := runModel(t, append(args, "--seed", "7")...)
				if again != first {
					t.Errorf("the same flags and seed gave different output:\n%s\nthen\n%s", first, again)
				}
				other, _ := runModel(t, append(args, "--seed", "8")...)
				if other == first {
					t.Errorf("--seed 8 gave the same output as --seed 7 with --jitter 1ms:\n%s", first)
				}
			})
		}
	}
}

func TestModelJSONFields(t *testing.T) {
	t.Parallel()
	stdout, _ := runModel(t, append([]string{"--modes", "finelocking,linearpipe-0", "--cpus", "1,2", "--dur", "100ms",
		"--seed", "3", "--format", "json"}, goCosts...)...)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 5 || lines[0] != fmt.Sprintf(`{"brewput":"results","schema":%d}`, results.Schema) {
		t.Fatalf("%d lines, want the schema's and 4 (2 modes × 2 CPU counts):\n%s", len(lines), stdout)
	}
	for i, line := range lines[1:] {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v\n%s", i+2, err, line)
		}
		pol, _ := m["policy"].(map[string]any)
		if m["kind"] != "shop" || m["source"] != "model" || pol["sched"] != "go" || pol["seed"] != 3.0 {
			t.Errorf("line %d: kind %v, source %v, policy %v; want shop, model, go and 3", i+2, m["kind"], m["source"], pol)
		}
		bounds, ok := m["bounds"].(map[string]any)
		if !ok {
			t.Errorf("line %d has no bounds: %s", i+1, line)
			continue
		}
		if max, ok := bounds["throughput_max"].(float64); !ok || max <= 0 {
			t.Errorf("line %d: bounds.throughput_max is %v, want a positive number", i+1, bounds["throughput_max"])
		}
	}
}

func TestModelCount(t *testing.T) {
	t.Parallel()
	points := modelPoints(t, "--modes", "finelocking", "--cpus", "1,2", "--dur", "100ms", "--sched", "fifo", "--jitter", "1ms",
		"--seed", "5", "--count", "2")
	var got []string
	for _, p := range points {
		got = append(got, fmt.Sprintf("%s %d rep%d seed%d", p.Mode, p.CPUs, p.Rep, p.Seed))
	}
	want := []string{"finelocking 1 rep1 seed5", "finelocking 2 rep1 seed5", "finelocking 1 rep2 seed6", "finelocking 2 rep2 seed6"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("--count 2 gave points\n%s\nwant round by round, each round with the next seed:\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestModelFifoFinelocking checks the analytic result: each of finelocking's
// three machines is held 1 ms a latte, so N customers on N idealized CPUs
// make 250·N lattes a second up to the machines' 1000.
func TestModelFifoFinelocking(t *testing.T) {
	t.Parallel()
	points := modelPoints(t, "--modes", "finelocking", "--cpus", "1-6", "--sched", "fifo", "--dur", "1s")
	if len(points) != 6 {
		t.Fatalf("%d points, want 6", len(points))
	}
	for i, p := range points {
		n := i + 1
		want := min(250*float64(n), 1000)
		if p.CPUs != n || p.Par != n || p.Throughput != want {
			t.Errorf("point %d: cpus %d par %d throughput %v; want %d %d %v", i+1, p.CPUs, p.Par, p.Throughput, n, n, want)
		}
		if !p.IsModel() || p.Sched != "fifo" || p.Bounds == nil || p.Bounds.ThroughputMax != want {
			t.Errorf("cpus %d: source %q sched %q bounds %+v; want model, fifo, a ceiling of %v", n, p.Source, p.Sched, p.Bounds, want)
		}
	}
}

// TestModelShortWindowOfBlueprint: a blueprint's window may be shorter
// than the shop's default steps, which a --model run does not simulate;
// a step flag given with it is still checked.
func TestModelShortWindowOfBlueprint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bp := filepath.Join(dir, "mu.yaml")
	if err := os.WriteFile(bp, []byte("name: mu\nunit: ops\nresources: {mu: 1}\nsteps:\n  - {name: out, duration: 10ns}\n  - {name: in, duration: 10ns, holds: [mu]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if points := modelPoints(t, "--model", bp, "--sched", "fifo", "--cpus", "1", "--dur", "100us", "--warmup", "20us"); len(points) != 1 || points[0].Throughput == 0 {
		t.Errorf("points %+v, want one with a throughput", points)
	}
	if code, _, stderr := brewput(context.Background(), t, noChild(), "model", "--model", bp, "--grind", "1ms", "--dur", "100us", "--out", filepath.Join(dir, "m.json")); code != 2 || !strings.Contains(stderr, "--grind 1ms") {
		t.Errorf("--grind 1ms with a 100µs window: exit %d, stderr %q; want 2 naming --grind", code, stderr)
	}
}

// TestModelUnusedResources: a blueprint declaring 10,000 resources and
// using one answers as the one declared alone, byte for byte, and says in
// one line of 80 columns which it left out; so does advise.
func TestModelUnusedResources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var many strings.Builder
	many.WriteString("name: shop\nresources:\n")
	for i := range 10_000 {
		fmt.Fprintf(&many, "  r%d: 1\n", i)
	}
	const steps = "steps:\n  - {name: work, duration: 1ms, holds: [r1]}\n"
	files := map[string]string{"many": many.String() + steps, "one": "name: shop\nresources: {r1: 1}\n" + steps}
	out := map[string]string{}
	for name, yaml := range files {
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"model", "advise"} {
			code, stdout, stderr := brewput(context.Background(), t, noChild(), cmd, "--model", path, "--cpus", "2", "--sched", "fifo")
			if code != 0 {
				t.Fatalf("%s --model %s.yaml: exit %d, stderr %q", cmd, name, code, stderr)
			}
			out[cmd+" "+name], out[cmd+" "+name+" stderr"] = stdout, stderr
		}
	}
	const told = "shop: unused, not simulated: r0, r2, r3, … (9999 resources)\n"
	for _, cmd := range []string{"model", "advise"} {
		if out[cmd+" many"] != out[cmd+" one"] {
			t.Errorf("%s: 10,000 declared answer\n%s\nthe one alone\n%s", cmd, out[cmd+" many"], out[cmd+" one"])
		}
		if got := out[cmd+" many stderr"]; got != told || out[cmd+" one stderr"] != "" {
			t.Errorf("%s: told %.200q with 10,000 declared, %q with one; want %q and nothing", cmd, got, out[cmd+" one stderr"], told)
		}
	}
}

// TestModelCafe checks the example blueprint against the numbers its
// comments work out by hand: 100·N lattes a second until its two
// baristas, busy 8 ms a latte, stop it at 250.
func TestModelCafe(t *testing.T) {
	t.Parallel()
	points := modelPoints(t, "--model", "../../../../examples/cafe.yaml", "--sched", "fifo", "--cpus", "1-4")
	if len(points) != 4 {
		t.Fatalf("%d points, want 4", len(points))
	}
	for i, p := range points {
		n := i + 1
		want := min(100*float64(n), 250)
		if p.Mode != "cafe" || p.CPUs != n || p.Throughput != want || !p.IsModel() {
			t.Errorf("point %d: mode %q cpus %d throughput %v source %q; want cafe %d %v model", i+1, p.Mode, p.CPUs, p.Throughput, p.Source, n, want)
		}
	}
}

func TestModelCPULimit(t *testing.T) {
	t.Parallel()
	points := modelPoints(t, "--modes", "finelocking", "--cpus", "256", "--dur", "50ms", "--sched", "fifo")
	if len(points) != 1 || points[0].CPUs != 256 || points[0].Par != 256 || points[0].Ops <= 0 {
		t.Errorf("--cpus 256: %d points, %+v; want one point on 256 CPUs, with 256 customers, that made lattes", len(points), points)
	}

	code, stdout, stderr := brewput(context.Background(), t, noChild(), "model", "--modes", "finelocking", "--cpus", "257", "--dur", "50ms", "--sched", "fifo")
	if code != exitUsage || stdout != "" {
		t.Errorf("--cpus 257: exit %d, stdout %q; want %d and nothing", code, stdout, exitUsage)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--cpus") || !strings.Contains(stderr, "257") || !strings.Contains(stderr, "at most 256") {
		t.Errorf("--cpus 257: stderr %q; want one line naming --cpus, 257 and the most the model takes", stderr)
	}
}

func TestModelOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	stdout, stderr := runModel(t, "--modes", "finelocking", "--cpus", "1,2", "--dur", "100ms", "--sched", "fifo", "--out", out)
	// The source may be named in the line of what the table left out,
	// wrapped anywhere.
	words := strings.Join(strings.Fields(stdout), " ")
	if !strings.Contains(stdout, "mode") || !strings.Contains(stdout, "finelocking") || !strings.Contains(words, "model (fifo)") || strings.Contains(stdout, "{") {
		t.Errorf("stdout is not the table of the model's points:\n%s", stdout)
	}
	if !strings.Contains(stderr, "wrote 2 points to "+out) {
		t.Errorf("stderr does not say the file was written:\n%s", stderr)
	}
	points, err := results.ReadFile(out)
	if err != nil {
		t.Fatalf("results.ReadFile(%s): %v", out, err)
	}
	if len(points) != 2 {
		t.Fatalf("%s holds %d points, want 2", out, len(points))
	}
	for _, p := range points {
		if !p.IsModel() || p.Sched != "fifo" || p.Mode != "finelocking" || p.Bounds == nil {
			t.Errorf("point read back: source %q sched %q mode %q bounds %v; want a model point of finelocking under fifo", p.Source, p.Sched, p.Mode, p.Bounds)
		}
	}
	assertNoTemp(t, dir)
}

// TestModelCostFlagsNeedNoCalibration gives the go policy all eleven costs:
// nothing is measured, nothing saved, and the points name no host.
func TestModelCostFlagsNeedNoCalibration(t *testing.T) {
	config := emptyConfig(t)
	points := modelPoints(t, append([]string{"--sched", "go", "--modes", "finelocking,linearpipe-1", "--cpus", "1-4", "--dur", "100ms"}, goCosts...)...)
	if len(points) != 8 {
		t.Fatalf("%d points, want 8", len(points))
	}
	for _, p := range points {
		if p.Sched != "go" || p.Host != (results.Host{}) {
			t.Errorf("%s cpus %d: sched %q host %+v; want go and no host, the costs being the flags'", p.Mode, p.CPUs, p.Sched, p.Host)
		}
	}
	assertEmptyDir(t, config, "the eleven cost flags were given")
}

// TestModelCalibrationFile reads the costs from a file brewput calibrate
// wrote: the points carry its host, and match the same costs given as
// flags.
func TestModelCalibrationFile(t *testing.T) {
	config := emptyConfig(t)
	file := filepath.Join(t.TempDir(), "cal.json")
	measured, _ := sharedCalibration(t)
	data, err := os.ReadFile(measured)
	if err == nil {
		err = os.WriteFile(file, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	cal, err := calibrate.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	// Measured beside other processes it would be set aside (calibrate's
	// Hedged, TestModelBusyCalibration): kept as if the machine had been
	// quiet, the file's costs are the ones used.
	cal.Others, cal.Forced = 0, false
	if err := calibrate.Save(file, cal); err != nil {
		t.Fatal(err)
	}
	// This machine's: an unknown one's cost of moving a line is not the
	// calibration's.
	args := []string{"--modes", "finelocking,linearpipe-1", "--cpus", "1-3", "--dur", "100ms", "--jitter", "500us", "--machine", "this"}
	stdout, stderr := runModel(t, append(args, "--calibration", file, "--format", "json")...)
	if stderr != "" {
		t.Errorf("stderr:\n%s\nwant nothing", stderr)
	}
	fromFile, err := results.ReadJSON(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	c := cal.Costs
	fromFlags := modelPoints(t, append(args, "--switch", c.Switch.String(), "--wake", c.Wake.String(),
		"--mutex-handoff", c.MutexHandoff.String(), "--chan-handoff", c.ChanHandoff.String(), "--buf-chan-handoff", c.BufChanHandoff.String(), "--spin-wake", c.SpinWake.String(), "--spin-window", c.SpinWindow.String(), "--runnext-grace", c.RunnextGrace.String(), "--mutex-spin", c.MutexSpin.String(),
		"--runtime-lock", c.RuntimeLock.String(), "--transfer", c.Transfer.Socket.String())...)
	if len(fromFile) != 6 || len(fromFlags) != 6 {
		t.Fatalf("%d points from the file, %d from the flags; want 6", len(fromFile), len(fromFlags))
	}
	for i, p := range fromFile {
		if p.Host != cal.Host {
			t.Errorf("%s cpus %d: host %+v, want the calibration's %+v", p.Mode, p.CPUs, p.Host, cal.Host)
		}
		q := fromFlags[i]
		if p.Calibration == nil || p.Calibration.Host != cal.Host.Name || p.Band == nil {
			t.Errorf("%s cpus %d: calibration %+v, band %+v; want the file's named, and a band", p.Mode, p.CPUs, p.Calibration, p.Band)
		}
		// The flags give no intervals, so no band (nor a note of its edge
		// past a bound, which depends on the intervals measured), and
		// name themselves.
		p.Host, q.Host = results.Host{}, results.Host{}
		p.Band, p.Calibration, q.Calibration = nil, nil, nil
		// A note of a number past its bound names the band's edge where
		// there is one: both said again without it.
		p.AssessAbove()
		q.AssessAbove()
		a, _ := json.Marshal(p)
		b, _ := json.Marshal(q)
		if string(a) != string(b) {
			t.Errorf("%s cpus %d differs between --calibration and the same costs as flags:\n%s\n%s", p.Mode, p.CPUs, a, b)
		}
	}
	assertEmptyDir(t, config, "--calibration was given")
}

// fakeMeasurement is a calibration as calibrate.Measure returns it, with
// other processes using others CPUs while it measured, and a count of the
// times it was asked for: the tests' stand-in for measuring this machine,
// quiet or busy as they need, whatever this machine is doing.
func fakeMeasurement(t *testing.T, others float64) (calibrate.Measurer, *atomic.Int32) {
	t.Helper()
	cal, err := calibrate.Load(filepath.Join("testdata", "calibration-2core.json"))
	if err != nil {
		t.Fatal(err)
	}
	cal.Date, cal.Others, cal.Forced = time.Date(2026, 11, 23, 22, 0, 0, 0, time.UTC), others, false
	var calls atomic.Int32
	return func(context.Context, func(results.CalibrationEvent)) (calibrate.Calibration, error) {
		calls.Add(1)
		return cal, nil
	}, &calls
}

// withMeasurement runs brewput with args, the go policy's costs measured
// (where none are saved) by measure, and fails t unless it exits OK.
func withMeasurement(t *testing.T, measure calibrate.Measurer, args ...string) (stdout, stderr string) {
	t.Helper()
	var out syncBuffer
	errOut := syncBuffer{columns: unwrapped}
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, child: noChild(), calibrateCosts: measure}
	if code := runEnv(context.Background(), args, e); code != exitOK {
		t.Fatalf("brewput %q: exit %d; stderr:\n%s", args, code, errOut.String())
	}
	return out.String(), errOut.String()
}

// TestModelDefaultCalibration: with no calibration saved, the first run
// measures the machine and, it being quiet, saves what it measured; the
// next run reads it and measures nothing.
func TestModelDefaultCalibration(t *testing.T) {
	config := emptyConfig(t)
	measure, calls := fakeMeasurement(t, 0.05)
	args := []string{"model", "--modes", "finelocking", "--cpus", "1,2", "--dur", "100ms"}
	first, stderr := withMeasurement(t, measure, args...)
	path := filepath.Join(config, "brewput", "calibration.json")
	if !strings.Contains(stderr, "saved the calibration to "+path+"\n") {
		t.Errorf("the first run does not say it saves the calibration to %s:\n%s", path, stderr)
	}
	if _, err := calibrate.Load(path); err != nil {
		t.Fatalf("the calibration saved: %v", err)
	}
	if !strings.Contains(oneLine(first), "Runtime costs: ") || strings.Contains(first, "busy") {
		t.Errorf("the answer does not name the costs, measured on a quiet machine:\n%s", first)
	}
	again, stderr := withMeasurement(t, measure, args...)
	if stderr != "" {
		t.Errorf("the second run wrote to stderr:\n%s\nwant nothing, the calibration being saved", stderr)
	}
	if again != first {
		t.Errorf("the second run's output differs from the first's:\n%s\nthen\n%s", first, again)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("measured %d times, want once", n)
	}
}

// TestModelBusyCalibration: a calibration measured while other processes
// used more than a few tenths of a CPU is not saved, and the run that
// measured it sets it aside: no quiet calibration being kept, it predicts
// with the reference machine's costs for an unknown machine, and says so in
// the stderr, in the answer's line on its costs, in the table's caption,
// in every point's JSON and in advise's; the next run measures again.
func TestModelBusyCalibration(t *testing.T) {
	config := emptyConfig(t)
	measure, calls := fakeMeasurement(t, 1.37)
	args := []string{"model", "--modes", "finelocking", "--cpus", "1,2", "--dur", "100ms"}
	aside := "set aside: the calibration measured for this run on a busy machine (other processes used 1.37 CPUs), no quiet one being kept"
	costsAside := "Runtime costs: " + calibrate.ReferenceHost + "'s; this machine's were measured busy."
	for run := 1; run <= 3; run += 2 {
		stdout, stderr := withMeasurement(t, measure, args...)
		if !strings.Contains(stderr, "not kept (other processes used 1.37 CPUs): using "+calibrate.ReferenceHost+"'s costs.") {
			t.Errorf("run %d: stderr does not say the calibration was not kept and is set aside:\n%s", run, stderr)
		}
		if !strings.Contains(stdout, costsAside) {
			t.Errorf("run %d: the answer does not say %q:\n%s", run, costsAside, stdout)
		}
		stdout, _ = withMeasurement(t, measure, append(args, "--format", "table")...)
		if caption := captionOf(stdout); !strings.Contains(caption, aside) || !strings.Contains(caption, "the reference calibration, for "+calibrate.ReferenceHost+"'s runtime costs") ||
			!strings.Contains(caption, "for an unknown machine of ") || !strings.Contains(caption, calibrate.ReferenceHost+" wakes a sleeping goroutine") {
			t.Errorf("run %d: the table's caption %q does not say %q", run, caption, aside)
		}
		assertEmptyDir(t, config, "the machine was busy")
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("measured %d times in four runs, want four: nothing was saved", n)
	}
	stdout, _ := withMeasurement(t, measure, append(args, "--format", "json")...)
	points, err := results.ReadJSON(strings.NewReader(stdout))
	if err != nil || len(points) != 2 {
		t.Fatalf("%d points, %v; want 2", len(points), err)
	}
	wake, _ := calibrate.Reference().Ref().Cost("wake")
	for _, p := range points {
		c := p.Calibration
		if c == nil || c.SetAside == nil || !c.SetAside.Unsaved || !c.SetAside.Reference || c.SetAside.Others != 1.37 || c.Busy() {
			t.Fatalf("%s on %d CPUs: calibration %+v; want the reference's, setting aside the unsaved one of 1.37 CPUs", p.Mode, p.CPUs, p.Calibration)
		}
		if k, _ := c.Cost("wake"); k != wake || !strings.Contains(text.CalibrationFor(*c), aside) {
			t.Errorf("%s on %d CPUs: wake %+v, want the reference's %+v; says %q", p.Mode, p.CPUs, k, wake, text.CalibrationFor(*c))
		}
	}
	advice, _ := withMeasurement(t, measure, "advise", "--mode", "finelocking", "--cpus", "2", "--dur", "100ms")
	answer, _, _ := strings.Cut(advice, "\n\n") // a paragraph, wrapped
	if answer = strings.ReplaceAll(answer, "\n", " "); !strings.Contains(answer, costsAside) || strings.Count(answer, calibrate.ReferenceHost) != 1 {
		t.Errorf("advise's answer %q does not say %q, once", answer, costsAside)
	}
	adviceJSON, _ := withMeasurement(t, measure, "advise", "--mode", "finelocking", "--cpus", "2", "--dur", "100ms", "--format", "json")
	var a limits.Advice
	if err := json.Unmarshal([]byte(adviceJSON), &a); err != nil || !strings.Contains(a.Calibration, aside) {
		t.Errorf("advise's JSON calibration %q (%v) does not say %q", a.Calibration, err, aside)
	}
}

// measuredCalibration is the one calibration brewput calibrate measures
// in this test process: the tests that read a measured file need no
// second one.
var measuredCalibration struct {
	once           sync.Once
	dir            string // removed by TestMain
	code           int
	stdout, stderr string
	err            error
}

// sharedCalibration is the file brewput calibrate --out FILE --samples 5
// --repeats 2 --force --wait 0s wrote for this test process, and what it
// printed; it fails t where the run did not succeed. --force: on a busy
// machine brewput calibrate refuses to save (exit 1), which
// TestCalibrateKeepable checks without needing one. Its contention curves
// are one cell of each shape, measured once for 2 ms on each count: the
// whole grid, three times 20 ms, took 25 s of two CPUs here (a cell takes
// at least the 10 ms in which the runtime preempts its spinning
// goroutines to wake the timer), and these tests read no curve's figures.
func sharedCalibration(t *testing.T) (file, stdout string) {
	t.Helper()
	m := &measuredCalibration
	m.once.Do(func() {
		if m.dir, m.err = os.MkdirTemp("", "brewput-test-calibration-"); m.err != nil {
			return
		}
		brief := curves.Options{Repeats: 1, Dur: 2 * time.Millisecond}
		for _, c := range curves.Grid() {
			if !slices.ContainsFunc(brief.Cells, func(b curves.Cell) bool { return b.Shape == c.Shape }) {
				brief.Cells = append(brief.Cells, c)
			}
		}
		var out, errOut syncBuffer
		m.code = runEnv(context.Background(), []string{"calibrate", "--out", filepath.Join(m.dir, "cal.json"), "--samples", "5", "--repeats", "2", "--force", "--wait", "0s"},
			&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, child: noChild(), calibrateCurves: brief})
		m.stdout, m.stderr = out.String(), errOut.String()
	})
	if m.err != nil {
		t.Fatal(m.err)
	}
	file = filepath.Join(m.dir, "cal.json")
	if m.code != exitOK {
		t.Fatalf("brewput calibrate --out %s: exit %d; stderr:\n%s", file, m.code, m.stderr)
	}
	return file, m.stdout
}

// removeSharedCalibration removes what sharedCalibration wrote, once every
// test is done.
func removeSharedCalibration() {
	if measuredCalibration.dir != "" {
		os.RemoveAll(measuredCalibration.dir)
	}
}

func TestCalibrate(t *testing.T) {
	out, stdout := sharedCalibration(t)
	dir := filepath.Dir(out)
	for _, w := range []string{"switch", "wake", "mutex handoff", "chan handoff", "buf chan handoff", "2 repeats of 5 samples each", "95% interval", "contention curves: ", "saved: " + out + "\n"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout does not contain %q:\n%s", w, stdout)
		}
	}
	cal, err := calibrate.Load(out)
	if err != nil {
		t.Fatalf("calibrate.Load(%s): %v", out, err)
	}
	if cal.Samples != 5 || cal.Host.GoVersion == "" {
		t.Errorf("calibration: %d samples, go version %q; want 5 and the host's", cal.Samples, cal.Host.GoVersion)
	}
	if c := cal.Costs; c.Switch <= 0 || c.MutexHandoff <= 0 || c.ChanHandoff <= 0 || c.BufChanHandoff <= 0 || c.Wake < 0 {
		t.Errorf("costs %+v; want each positive (wake may be 0 on one CPU)", c)
	}
	assertNoTemp(t, dir)
}

// TestCalibrateShow prints a saved calibration with its intervals, host
// and date; with none saved it fails (exit 1) saying where it looked.
func TestCalibrateShow(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cal.json")
	code, _, stderr := brewput(context.Background(), t, noChild(), "calibrate", "--show", "--out", file)
	if code != exitFailure || !strings.Contains(stderr, "no calibration at "+file) {
		t.Errorf("nothing saved: exit %d, stderr %q", code, stderr)
	}
	cal := calibrate.Calibration{Samples: 100, Repeats: 6, Others: 0.03, Date: time.Date(2026, 11, 22, 10, 38, 0, 0, time.UTC)}
	cal.Host.Name = "vm"
	cal.Costs = sim.Costs{Wake: 74 * time.Microsecond, SpinWindow: 80 * time.Microsecond}
	cal.Lo, cal.Hi = cal.Costs, cal.Costs
	cal.Lo.Wake, cal.Hi.Wake = 72*time.Microsecond, 75*time.Microsecond
	if err := calibrate.Save(file, cal); err != nil {
		t.Fatal(err)
	}
	stdout, stderr := succeeds(t, noChild(), "calibrate", "--show", "--out", file)
	for _, want := range []string{file, "74µs", "72µs – 75µs", "6 repeats of 100 samples each on vm", "2026-11-22 10:38 UTC", "0.03 CPUs"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--show: no %q in\n%s", want, stdout)
		}
	}
}

// TestModelBandAndCalibration: a go-policy point from a calibration file
// carries its band and names the calibration, in JSON and in the table's
// footer; fifo points carry neither.
func TestModelBandAndCalibration(t *testing.T) {
	emptyConfig(t)
	file := filepath.Join(t.TempDir(), "cal.json")
	cal := calibrate.Calibration{Samples: 100, Repeats: 6, Date: time.Date(2026, 11, 22, 10, 38, 0, 0, time.UTC)}
	cal.Host.Name = "vm"
	us := time.Microsecond
	cal.Costs = sim.Costs{Switch: 145, Wake: 75 * us, SpinWake: us, SpinWindow: 80 * us, MutexHandoff: 1200, ChanHandoff: 2900, BufChanHandoff: 2300}
	cal.Lo, cal.Hi = cal.Costs, cal.Costs
	cal.Lo.SpinWindow, cal.Hi.SpinWindow = 10*us, 200*us
	cal.Lo.Wake, cal.Hi.Wake = 60*us, 90*us
	if err := calibrate.Save(file, cal); err != nil {
		t.Fatal(err)
	}
	args := []string{"--modes", "finelocking", "--cpus", "6", "--dur", "1s", "--calibration", file}
	points := modelPoints(t, args...)
	p := points[0]
	if p.Band == nil || p.Band.Throughput[0] > p.Throughput || p.Band.Throughput[1] < p.Throughput || p.Band.Throughput[1] == p.Band.Throughput[0] {
		t.Errorf("band %+v around %v", p.Band, p.Throughput)
	}
	if p.Calibration == nil || p.Calibration.Host != "vm" || !strings.Contains(text.CalibrationCosts(*p.Calibration), "spin window 80µs [10µs, 200µs]") {
		t.Errorf("calibration %+v", p.Calibration)
	}
	table, _ := runModel(t, append(args, "--format", "table")...)
	if !strings.Contains(oneLine(table), "go band") || !strings.Contains(oneLine(table), "for vm's runtime costs, measured 2026-11-22 10:38 UTC") {
		t.Errorf("table without its range column or calibration caption:\n%s", table)
	}
	if p := modelPoints(t, "--modes", "finelocking", "--cpus", "6", "--dur", "200ms", "--sched", "fifo")[0]; p.Band != nil || p.Calibration != nil {
		t.Errorf("fifo point with band %+v, calibration %+v", p.Band, p.Calibration)
	}
	if p := modelPoints(t, append(args, "--band=false")...)[0]; p.Band != nil {
		t.Errorf("--band=false: band %+v", p.Band)
	}
}

// --causal=false leaves each point's causal profile out and names no
// limit, in JSON and in the table, but simulates the same points, band
// included.
func TestModelCausalFalse(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--modes", "finelocking,locking", "--cpus", "2,4", "--dur", "300ms", "--sched", "fifo"},
		append([]string{"--modes", "multi-2", "--cpus", "3", "--dur", "300ms"}, goCosts...),
	} {
		full := modelPoints(t, args...)
		bare := modelPoints(t, append(args, "--causal=false")...)
		if len(bare) != len(full) {
			t.Fatalf("%q --causal=false: %d points, want %d", args, len(bare), len(full))
		}
		for i := range full {
			if full[i].Bottleneck == nil || bare[i].Bottleneck != nil {
				t.Errorf("%q: bottleneck %v, and with --causal=false %v; want one, then none", args, full[i].Bottleneck, bare[i].Bottleneck)
			}
			if bare[i].Throughput != full[i].Throughput || bare[i].Latency != full[i].Latency {
				t.Errorf("%q --causal=false: %s on %d CPUs %v ops/s, p50 %v ms; want %v, %v", args, bare[i].Mode, bare[i].CPUs, bare[i].Throughput, bare[i].Latency.P50, full[i].Throughput, full[i].Latency.P50)
			}
		}
		for _, f := range []string{"table", "compact"} {
			if table, _ := runModel(t, append(args, "--causal=false", "--format", f)...); strings.Contains(table, "limited by") || strings.Contains(table, results.NoCausalProfile) {
				t.Errorf("%q --causal=false --format %s: the table has a column of limits:\n%s", args, f, table)
			}
		}
	}
}

// TestModelOthers: --others simulates other processes on the machine. Ideal
// with a customer per CPU, its steps burning CPU time, keeps every CPU busy
// and loses about their share (0.4 of 2 CPUs: a fifth); locking keeps one
// CPU free and loses nothing. Steps that end on the clock (the default)
// lose less: a step the others held up still ends on time. Each point
// says what it simulated.
func TestModelOthers(t *testing.T) {
	emptyConfig(t)
	args := append([]string{"--modes", "ideal,locking", "--cpus", "2", "--dur", "1s", "--burn", "cpu"}, goCosts...)
	alone := modelPoints(t, args...)
	busy := modelPoints(t, append(args, "--others", "0.4")...)
	if len(alone) != 2 || len(busy) != 2 {
		t.Fatalf("%d and %d points, want 2 and 2", len(alone), len(busy))
	}
	for i, p := range busy {
		if p.Background.CPUs != 0.4 || p.Background.Burst != time.Millisecond || alone[i].Background.CPUs != 0 {
			t.Errorf("%s: background %v CPUs in bursts of %v (without --others %v); want 0.4, 1ms and 0", p.Mode, p.Background.CPUs, p.Background.Burst, alone[i].Background.CPUs)
		}
		// A fifth of ideal's CPU time, give or take three standard
		// deviations of the bursts that strike it (about 200 a CPU).
		lo, hi := 0.72, 0.88
		if p.Mode == "locking" {
			lo, hi = 1, 1
		}
		if r := p.Throughput / alone[i].Throughput; r < lo || r > hi {
			t.Errorf("%s: %.1f lattes/s with others, %.1f without: ratio %.3f, want %.2f to %.2f", p.Mode, p.Throughput, alone[i].Throughput, r, lo, hi)
		}
	}
	wall := modelPoints(t, append(args, "--others", "0.4", "--burn", "wall")...)
	if len(wall) != 2 || wall[0].Throughput <= busy[0].Throughput || wall[0].Burn != "wall" || busy[0].Burn != "" {
		t.Errorf("ideal beside others: %+v with wall steps, %+v with CPU-time steps; want more lattes with wall steps, and each to say its steps", wall, busy)
	}
}

// --combine sets the last step; --latte, its older name, still does.
func TestCombineAndLatte(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--combine", "--latte"} {
		points := modelPoints(t, "--sched", "fifo", "--modes", "ideal", "--cpus", "1", "--dur", "50ms", "--warmup", "0s", "--causal=false", flag, "3ms")
		if len(points) != 1 || points[0].Shop.Steps.Combine != 3*time.Millisecond {
			t.Errorf("brewput model %s 3ms: %+v, want one point whose combine step is 3ms", flag, points)
		}
	}
}

// TestFitWindow: a blueprint's window, where the user set none, is halved
// while what it would simulate is refused, down to a tenth of
// blueprint.WindowOrders' time, and said; set with --dur, it is the
// user's, refused as it is, its warm-up a quarter of it where --warmup
// is not set (and said).
func TestFitWindow(t *testing.T) {
	bp, err := blueprint.Parse("mu.yaml", []byte("name: mu\nunit: ops\nresources: {mu: 1}\nsteps:\n  - {name: out, duration: 10ns}\n  - {name: in, duration: 10ns, holds: [mu]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bp.Window(time.Second, 100*time.Millisecond)
	for _, c := range []struct {
		what     string
		args     []string
		fitsAt   time.Duration // the longest window check takes
		wantDur  time.Duration // 0: refused
		wantTold string
		wantWarm time.Duration // 0: not checked
	}{
		{"fits at once", nil, time.Second, first, "about 200000 orders on one CPU (--dur", 0},
		{"fits at a quarter", nil, first / 4, first / 4, "about 50000 orders on one CPU, as many as the events allowed fit", 0},
		{"fits nowhere", nil, first / 100, 0, "", 0},
		{"the user's window", []string{"--dur", "1ms"}, first / 100, 0, "", 0},
		{"the user's window, warmed a quarter of it", []string{"--dur", "1ms"}, time.Second, time.Millisecond,
			"mu: 250µs of warm-up before each 1ms window (--warmup sets another)", 250 * time.Microsecond},
		{"the user's window and warm-up", []string{"--dur", "1ms", "--warmup", "50ms"}, time.Second, time.Millisecond, "", 50 * time.Millisecond},
	} {
		fs := pflag.NewFlagSet("model", pflag.ContinueOnError)
		var dur, warmup time.Duration
		fs.DurationVar(&dur, "dur", time.Second, "")
		fs.DurationVar(&warmup, "warmup", 100*time.Millisecond, "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		specs := []shopsweep.Spec{{}, {}}
		for i := range specs {
			specs[i].Load.Dur, specs[i].Load.Warmup = dur, warmup
		}
		var told strings.Builder
		err := modelcli.FitWindow(fs, specs, bp, (&env{stderr: &told}).tell, func() error {
			if specs[0].Load.Dur > c.fitsAt || specs[1].Load.Dur != specs[0].Load.Dur {
				return fmt.Errorf("too many events")
			}
			return nil
		})
		switch {
		case c.wantDur == 0 && err == nil:
			t.Errorf("%s: window %v fitted, want refused", c.what, specs[0].Load.Dur)
		case c.wantDur > 0 && (err != nil || specs[0].Load.Dur != c.wantDur || !strings.Contains(oneLine(told.String()), c.wantTold)):
			t.Errorf("%s: window %v (err %v), told %q; want %v and %q", c.what, specs[0].Load.Dur, err, told.String(), c.wantDur, c.wantTold)
		case c.wantWarm > 0 && (specs[0].Load.Warmup != c.wantWarm || specs[1].Load.Warmup != c.wantWarm):
			t.Errorf("%s: warm-ups %v and %v, want %v", c.what, specs[0].Load.Warmup, specs[1].Load.Warmup, c.wantWarm)
		case c.wantTold == "" && c.wantDur > 0 && told.Len() > 0:
			t.Errorf("%s: told %q, want nothing", c.what, told.String())
		}
	}
}

// TestModelBlueprintUnknownMachine: issue 54's command, a blueprint past
// this machine's CPUs with no other flag than the calibration, prints at
// 80 columns each point's band and says that past the calibrated CPUs it
// predicts for an unknown machine and what that machine's band spans, in
// the table of every point; its answer leaves them to it.
func TestModelBlueprintUnknownMachine(t *testing.T) {
	if race.Enabled {
		// Under the detector its simulations took 170 s of the race run (at load 11); they
		// are the model's, whose goroutines package model's tests run
		// under it, and what it asserts the plain run checks.
		t.Skip("the model's surfaces checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	// Every run is given its calibration, so none reads the user's config
	// folder: beside the other tests.
	t.Parallel()
	yaml := filepath.Join(t.TempDir(), "mutex.yaml")
	bp := "name: mutex\nunit: ops\nresources: {mu: 1}\nsteps:\n  - {name: lock, duration: 13ns}\n  - {name: unlock, duration: 13ns, holds: [mu]}\n"
	if err := os.WriteFile(yaml, []byte(bp), 0o644); err != nil {
		t.Fatal(err)
	}
	// The full table gives every point's band; the answer (compact, the
	// default) leaves the bands and the model's words to it.
	for _, format := range []string{"compact", "table"} {
		stdout, _ := runModel(t, "--model", yaml, "--cpus", "1,2,16", "--calibration", filepath.Join("testdata", "calibration-2core.json"), "--format", format)
		if said := strings.Contains(oneLine(stdout), "go band"); said != (format == "table") {
			t.Errorf("--format %s: says the band at 80 columns %v, want %v:\n%s", format, said, format == "table", stdout)
		}
		if said := strings.Contains(oneLine(stdout), "past them for an unknown machine of 16 CPUs (moving a cache line"); said != (format == "table") {
			t.Errorf("--format %s: says it predicts for an unknown machine past the calibrated CPUs %v, want %v:\n%s", format, said, format == "table", stdout)
		}
		for _, line := range strings.Split(stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("--format %s: a line of %d columns: %q", format, n, line)
			}
		}
	}
}
