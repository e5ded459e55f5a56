package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// studyCPUs is a CPU list with two counts where the machine has them, so
// that the report draws lines.
func studyCPUs() string {
	if runtime.NumCPU() >= 2 {
		return "1,2"
	}
	return "1"
}

// TestMainJobAndReport runs the main job on a small study, then re-renders
// its results with brewput report: the second report must be byte for
// byte the first.
// lastCPUs is the largest CPU count of studyCPUs.
func lastCPUs() string {
	counts := strings.Split(studyCPUs(), ",")
	if n := counts[len(counts)-1]; n != "1" {
		return n + " CPUs"
	}
	return "1 CPU"
}

func TestMainJobAndReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	stdout, stderr := succeeds(t, selfChild(),
		"--modes", "noop,finelocking", "--cpus", studyCPUs(), "--dur", "100ms", "--warmup", "20ms", "--noisy", "ok", "--out", first)
	if !strings.Contains(stdout, "finelocking") || !strings.Contains(stdout, "report: "+filepath.Join(first, "index.html")) {
		t.Errorf("stdout has no table or no path to the page:\n%s", stdout)
	}
	// The verdict first, then the table of the modes by CPU counts, the
	// measured apart from the predicted, and what limits each mode.
	for _, want := range []string{"On " + lastCPUs() + " (measured on ", fmt.Sprintf("On %d CPUs (model): ", modelcli.PredictCPUs()),
		"measured", "predicted by the model (go)", fmt.Sprintf("  %d  p50 ms\n", modelcli.PredictCPUs()), "limited by; the best change", "Runtime costs: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// On a busy machine every measured point may be disturbed: then no mode
	// is ranked.
	if !strings.Contains(stdout, "noop makes") && !strings.Contains(stdout, "inconclusive") {
		t.Errorf("stdout neither ranks the measured modes nor says why not:\n%s", stdout)
	}
	if !strings.HasPrefix(stdout, "On ") {
		t.Errorf("the verdict does not come first:\n%s", stdout)
	}
	// The model's finelocking on 1 to predictCPUs CPUs can always be
	// fitted: there is a scalability chart. Every point has a causal
	// profile: there is a map of what limits what. finelocking hits its
	// wall (its grinder) and noop has no prediction to scale beside it: the
	// schedule picture is finelocking's at the most CPUs.
	want := []string{"analysis.json", "comparison.png", "comparison.svg", "distribution.png", "distribution.svg", "index.html", "results.csv", "results.json", "scalability.png", "scalability.svg",
		"limits.png", "limits.svg", fmt.Sprintf("schedule-finelocking-%dcpu-model.png", modelcli.PredictCPUs()), fmt.Sprintf("schedule-finelocking-%dcpu-model.svg", modelcli.PredictCPUs())}
	slices.Sort(want)
	if studyCPUs() != "1" {
		want = append(want, "latency.png", "latency.svg", "throughput.png", "throughput.svg")
		slices.Sort(want)
	}
	if got := testkit.DirNames(t, first); !slices.Equal(got, want) {
		t.Fatalf("main job wrote %v, want %v", got, want)
	}
	f, err := os.Open(filepath.Join(first, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	points, err := results.ReadJSON(f)
	f.Close()
	if err != nil {
		t.Fatalf("results.json: %v", err)
	}
	// Measured: both modes on each CPU count. Predicted by the model, go
	// policy: finelocking on 1 to predictCPUs CPUs; noop, which takes no
	// time in a closed loop, cannot be simulated and is left out.
	var measured, predicted []string
	for _, p := range points {
		id := fmt.Sprintf("%s/%d", p.Mode, p.CPUs)
		if p.IsModel() {
			if p.Sched != "go" || p.Bounds == nil {
				t.Errorf("model point %s: sched %q, bounds %v; want go and bounds", id, p.Sched, p.Bounds)
			}
			predicted = append(predicted, id)
		} else {
			measured = append(measured, id)
		}
	}
	var wantMeasured, wantPredicted []string
	for _, mode := range []string{"noop", "finelocking"} {
		for _, n := range strings.Split(studyCPUs(), ",") {
			wantMeasured = append(wantMeasured, mode+"/"+n)
		}
	}
	for n := 1; n <= modelcli.PredictCPUs(); n++ {
		wantPredicted = append(wantPredicted, fmt.Sprintf("finelocking/%d", n))
	}
	if !slices.Equal(measured, wantMeasured) {
		t.Errorf("results.json holds measured points %v, want %v", measured, wantMeasured)
	}
	if !slices.Equal(predicted, wantPredicted) {
		t.Errorf("results.json holds model points %v, want %v", predicted, wantPredicted)
	}
	if !strings.Contains(stderr, "no prediction for noop") {
		t.Errorf("stderr does not say noop has no prediction:\n%s", stderr)
	}
	if !strings.Contains(stdout, "model (go)") {
		t.Errorf("the table shows no model points:\n%s", stdout)
	}
	for _, s := range []string{`id="verdict"`, `id="chart-limits"`, `id="schedule"`} {
		if !strings.Contains(string(page0(t, first)), s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	// Issue 5: every point says what limits it, and the page has a section
	// per mode with the bottlenecks, the fit and the advice.
	for _, p := range points {
		if p.Bottleneck == nil || p.Bottleneck.Resource == "" || text.BottleneckText(p) == "" {
			t.Errorf("%s on %d CPUs (%s): no bottleneck in results.json", p.Mode, p.CPUs, p.Source)
		}
	}
	page, err := os.ReadFile(filepath.Join(first, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`id="mode-finelocking"`, "limited by", "How it scales", "What if?", "finelocking on " + lastCPUs() + " makes", `id="chart-scalability"`} {
		if !strings.Contains(string(page), s) {
			t.Errorf("index.html lacks %q", s)
		}
	}

	// brewput report of the saved run renders its saved analysis:
	// nothing is simulated, profiled or fitted again.
	again := filepath.Join(dir, "again")
	var out syncBuffer
	errOut := syncBuffer{columns: unwrapped}
	refuse := func([]results.Point, experiment.Options) (*analysis.Analysis, error) {
		t.Error("brewput report of a saved run analysed its points again")
		return nil, errors.New("analysed again")
	}
	args := []string{"report", filepath.Join(first, "results.json"), "--out", again}
	if code := runEnv(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, child: noChild(), analyze: refuse}); code != exitOK {
		t.Fatalf("brewput %q: exit %d; stderr:\n%s", args, code, errOut.String())
	}
	stdout = out.String()
	if !strings.Contains(stdout, "report: "+filepath.Join(again, "index.html")) {
		t.Errorf("brewput report does not say where the page is:\n%s", stdout)
	}
	for _, name := range want {
		a, _ := os.ReadFile(filepath.Join(first, name))
		b, err := os.ReadFile(filepath.Join(again, name))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the main job and brewput report (%v)", name, err)
		}
	}
}

func page0(t *testing.T, dir string) []byte {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestMainJobWithoutPredictions checks that --predict=false leaves the
// model out: measured points only, and no calibration needed.
func TestMainJobWithoutPredictions(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report")
	stdout, stderr := succeeds(t, selfChild(),
		"--modes", "noop,finelocking", "--cpus", "1", "--dur", "50ms", "--warmup", "10ms", "--noisy", "ok", "--predict=false", "--out", out)
	points, err := results.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 2 {
		t.Errorf("results.json holds %d points, want the 2 measured", len(points))
	}
	for _, p := range points {
		if p.IsModel() || p.Sched != "" || p.Bounds != nil {
			t.Errorf("%s cpus %d: source %q sched %q; want a measurement only", p.Mode, p.CPUs, p.Source, p.Sched)
		}
	}
	// The measured points' limits are the model's causal profiles, and
	// their column says so; nothing else of the model is shown.
	stdoutBut := strings.ReplaceAll(strings.Join(strings.Fields(stdout), " "), "limited by (model's profile)", "")
	stdoutBut = strings.ReplaceAll(stdoutBut, "in the model of the configurations measured", "")
	if strings.Contains(stderr, "prediction") || strings.Contains(stderr, "calibration") || strings.Contains(stdoutBut, "model") {
		t.Errorf("--predict=false still predicts:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

// TestMainJobInterrupted stops the main job after its first point: it must
// write the report of what it measured, say so, and exit 130. It keeps the
// first measurement of a disturbed point and predicts nothing, so that its
// first point comes soon even beside other processes: otherwise it could
// first calibrate (the package's tests share one config folder, and this
// one may be the first to need it) and then wait for a quiet machine up to
// 5 s per attempt, which under the whole suite's load once took over 30 s.
func TestMainJobInterrupted(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report")
	// The point takes 0.4 s.
	stdout, _ := interruptAtFirst(t, "point", "kept what was measured", func(ctx context.Context, stdout, stderr *syncBuffer) int {
		return runEnv(ctx, []string{"--modes", "noop,noop,noop", "--cpus", "1", "--dur", "400ms", "--warmup", "0s",
			"--noisy", "ok", "--predict=false", "--out", out},
			&env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, child: selfChild()})
	})
	if !strings.Contains(stdout, "report: ") {
		t.Errorf("stdout does not point to the report of what was measured:\n%s", stdout)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatalf("no report after the interruption: %v", err)
	}
	if !strings.Contains(string(page), "noop") {
		t.Errorf("the report does not show the measured point")
	}
}

// TestMainJobInterruptedBeforeAnyPoint checks that nothing is written when
// nothing was measured, not even the folder.
func TestMainJobInterruptedBeforeAnyPoint(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, stderr := brewput(ctx, t, selfChild(), "--modes", "noop", "--cpus", "1", "--dur", "50ms", "--out", out)
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the interrupted main job created %s with nothing to put in it", out)
	}
}

// TestRunCountAndBench measures two rounds and writes them in Go's
// benchmark format, then compares the file with itself.
func TestRunCountAndBench(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	stdout, stderr := succeeds(t, selfChild(),
		"run", "--modes", "noop,finelocking", "--cpus", "1", "--dur", "60ms", "--warmup", "10ms", "--count", "2", "--noisy", "ok", "--out", out)
	if !strings.Contains(stderr, "[4/4] finelocking cpus=1 rep 2") {
		t.Errorf("progress does not show the second round:\n%s", stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	points, err := results.ReadJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var reps []string
	for _, p := range points {
		reps = append(reps, p.Mode+"#"+string(rune('0'+p.Rep)))
	}
	if got := strings.Join(reps, " "); got != "noop#1 finelocking#1 noop#2 finelocking#2" {
		t.Errorf("points measured in order %s, want round by round", got)
	}
	if !strings.Contains(stdout, "rep") {
		t.Errorf("the table does not show repetitions:\n%s", stdout)
	}

	stdout, _ = succeeds(t, selfChild(),
		"run", "--modes", "finelocking", "--cpus", "1", "--dur", "60ms", "--warmup", "10ms", "--noisy", "ok", "--format", "bench")
	// A busy enough machine can leave the 60 ms window without a latte,
	// which the format says in a comment line in place of the point's.
	line := strings.Contains(stdout, "BenchmarkCoffee/mode=finelocking/par=1 ") && strings.Contains(stdout, " lattes/s")
	if !line && !strings.Contains(stdout, "# BenchmarkCoffee/mode=finelocking/par=1: no operations in the window") {
		t.Errorf("--format bench did not write a benchmark line:\n%s", stdout)
	}

	stdout, _ = succeeds(t, noChild(), "compare", out, out)
	// A window a busy machine left without a latte is no run of its
	// configuration ("1 to 2 runs each"): the answer is the same.
	// The sentence wraps where its count is longer; read it as one line.
	said := strings.Join(strings.Fields(stdout), " ")
	if !strings.Contains(said, "Measured, 2 configurations in both,") || !strings.Contains(said, "runs each: the same figures in both files.") {
		t.Errorf("comparing a file with itself does not say there is no difference:\n%s", stdout)
	}
	stdout, _ = succeeds(t, noChild(), "compare", "--all", out, out)
	if !strings.Contains(stdout, "finelocking") || !strings.Contains(stdout, "~") {
		t.Errorf("--all does not show the rows with no difference:\n%s", stdout)
	}
}
