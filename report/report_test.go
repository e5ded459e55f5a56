package report

import (
	"bytes"
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// chromium is the one headless Chromium whose tabs are this process's
// pages.
var chromium testkit.Shared

// underRace is what the race detector runs of this package when no -run
// is given: report starts no goroutine, so all it can find is state two
// renderings share, which these tests make at the same time; every other
// test is one goroutine's rendering, checked by the plain run.
const underRace = "^(TestBuildIsDeterministic|TestDrawChartsIsDeterministic)$"

func TestMain(m *testing.M) {
	flag.Parse()
	if race.Enabled && flag.Lookup("test.run").Value.String() == "" {
		flag.Set("test.run", underRace)
	}
	code := m.Run()
	if err := chromium.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "close Chromium: %v\n", err)
		code = 1
	}
	if sharedStudy.dir != "" {
		os.RemoveAll(sharedStudy.dir)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// studyPoints is a made-up default study on a 2-CPU machine, shaped like
// the talk's results: every mode doubles from 1 to 2 CPUs except locking,
// whose latency doubles instead. Its points are as sweep writes them:
// source "measured", the machine in Host.
func studyPoints() []results.Point {
	modes := []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-0", "linearpipe-1", "linearpipe-10", "multipipe-2"}
	var points []results.Point
	start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for _, cpus := range []int{1, 2} {
		for i, mode := range modes {
			thr, p50 := 250.0*float64(cpus)-float64(i), 4.0+0.05*float64(i)
			if mode == "locking" {
				thr, p50 = 249, 4.0*float64(cpus)
			}
			machines := []results.Machine{
				{Name: "grinder", Uses: int64(thr), BusyFrac: thr / 1000, MeanWaitMs: 0.01 * float64(cpus)},
				{Name: "espresso", Uses: int64(thr), BusyFrac: thr / 1000, MeanWaitMs: 0.02},
				{Name: "steamer", Uses: int64(thr), BusyFrac: thr / 1000, MeanWaitMs: 0},
			}
			if mode == "locking" {
				machines = []results.Machine{{Name: "kitchen", Uses: int64(thr), BusyFrac: 0.998, MeanWaitMs: 4 * float64(cpus-1)}}
			}
			if mode == "ideal" {
				machines = nil
			}
			points = append(points, results.Point{
				Source: results.SourceMeasured, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second, Warmup: 200 * time.Millisecond}}, CPUSet: "0-1",
				Ops: int64(thr), Throughput: thr, Unit: "lattes/s",
				Metrics: map[results.Metric]float64{results.CPUUsed: float64(cpus) * 0.99, results.Util: 0.99},
				Latency: results.Latency{Min: p50 * 0.97, P05: p50 * 0.98, P25: p50 * 0.99, P50: p50,
					P75: p50 * 1.1, P90: p50 * 1.3, P95: p50 * 1.5, P99: p50 * 2, Max: p50 * 3, Mean: p50 * 1.05},
				Shop:  &results.Shop{Machines: machines, Steps: results.Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}},
				Host:  results.Host{Name: "testhost", CPUModel: "Test CPU @ 2.0GHz", Cores: 2, GoVersion: "go1.26.8", OS: "linux", Arch: "amd64"},
				Start: start.Add(time.Duration(len(points)) * 1200 * time.Millisecond),
			})
		}
	}
	return points
}

// modelPoints is a made-up prediction of the study's modes by the model,
// on every CPU count from 1 to maxCPUs: each mode scales to its bound,
// locking's kitchen at 250 lattes/s, the others' machines at 1000.
func modelPoints(maxCPUs int) []results.Point {
	var points []results.Point
	for cpus := 1; cpus <= maxCPUs; cpus++ {
		for i, mode := range []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-0", "linearpipe-1", "linearpipe-10", "multipipe-2"} {
			b := &results.Bounds{CPU: 250 * float64(cpus), Structural: 1000 + 100*float64(i), LatencyMinMs: 4, Resource: "espresso", Little: 1}
			machine := results.Machine{Name: "espresso", Uses: 1000, MeanWaitMs: 0.1}
			switch mode {
			case "ideal":
				b.Structural, b.Resource, machine.Name = 0, "", "none"
			case "locking":
				b.Structural, b.Resource, machine.Name = 250, "kitchen", "kitchen"
			}
			b.ThroughputMax, b.SetBy = b.CPU, "CPUs"
			if b.Structural > 0 && b.Structural < b.CPU {
				b.ThroughputMax, b.SetBy = b.Structural, b.Resource
			}
			thr := b.ThroughputMax * 0.98
			machine.BusyFrac = min(1, thr/1000)
			p50 := 4 * float64(cpus) * 250 / thr
			points = append(points, results.Point{
				Source: results.SourceModel, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second, Warmup: 100 * time.Millisecond}, Policy: results.Policy{Sched: "fifo", Seed: 1}},
				Ops: int64(thr), Throughput: thr, Unit: "lattes/s",
				Metrics: map[results.Metric]float64{results.CPUUsed: thr * 4 / 1000, results.Util: thr * 4 / 1000 / float64(cpus)},
				// No latency below the 4 ms a latte takes at least: a
				// number past a bound would bring its reason (Assess).
				Latency: results.Latency{Min: 4, P05: max(4, p50*0.95), P25: max(4, p50*0.98), P50: p50,
					P75: p50 * 1.05, P90: p50 * 1.1, P95: p50 * 1.2, P99: p50 * 1.5, Max: p50 * 2, Mean: p50},
				Bounds: b,
				Shop:   &results.Shop{Machines: []results.Machine{machine}, Steps: results.Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond}},
			})
		}
	}
	return points
}

// readBack writes points as a results file and reads them back, as
// brewput report reads a run's.
func readBack(t *testing.T, points []results.Point) []results.Point {
	t.Helper()
	var jsonl bytes.Buffer
	if err := results.WriteJSON(&jsonl, points); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadJSON(&jsonl)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// checkDeterministic builds points twice, as given and read back from
// their results file as brewput report does, and checks that the two
// reports are the same bytes: nothing may depend on the run that measured
// them.
func checkDeterministic(t *testing.T, points []results.Point, fitted bool) {
	t.Helper()
	back := readBack(t, points)
	backAnswer := answered(t, back) // t.Fatal belongs to this goroutine
	var b *Report
	var errBack error
	var wg sync.WaitGroup
	wg.Go(func() { b, errBack = Build(back, backAnswer) })
	a, err := build(t, points)
	wg.Wait()
	if err != nil || errBack != nil {
		t.Fatalf("build: %v; its results file's, at the same time: %v", err, errBack)
	}
	want := []string{Index, "results.json", "results.csv", "throughput.svg", "throughput.png", "latency.svg", "latency.png", "distribution.svg", "distribution.png", "comparison.svg", "comparison.png"}
	if fitted {
		want = append(want, "scalability.svg", "scalability.png")
	}
	if len(a.Files) != len(want) {
		t.Fatalf("report has %d files, want %v", len(a.Files), want)
	}
	for i, f := range a.Files {
		if f.Name != want[i] {
			t.Errorf("file %d is %s, want %s", i, f.Name, want[i])
		}
		if len(f.Data) == 0 {
			t.Errorf("%s is empty", f.Name)
		}
		if strings.HasSuffix(f.Name, ".svg") {
			textsInside(t, f.Name, f.Data)
		}
		if !bytes.Equal(f.Data, b.Files[i].Data) {
			t.Errorf("%s differs between two renderings of the same points", f.Name)
		}
	}
}

// TestBuildIsDeterministic renders the same points twice, at once (the
// second read back from their results file), and compares the bytes.
func TestBuildIsDeterministic(t *testing.T) {
	t.Parallel()
	checkDeterministic(t, studyPoints(), false)                            // 2 CPU counts: nothing to fit
	checkDeterministic(t, append(studyPoints(), modelPoints(64)...), true) // the model's can be
}

// TestAnswerIsDeterministic: the verdict, the map of limits and the
// schedule pictures (one from a real trace) are the same bytes when the
// same points are rendered twice, read back from their results file the
// second time.
func TestAnswerIsDeterministic(t *testing.T) {
	if race.Enabled {
		// Two renderings compared byte for byte: report starts no
		// goroutine, so the detector has nothing of its own to watch
		// (22-59 s each under it, 2026-11-28).
		t.Skip("renders twice and compares: go test ./report checks it")
	}
	t.Parallel()
	points, opt := defaultStudy(t)
	a, err := BuildWith(points, opt)
	if err != nil {
		t.Fatal(err)
	}
	back := readBack(t, points)
	b, err := BuildWith(back, Options{Analysis: analyzed(t, back)})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, f := range a.Files {
		names = append(names, f.Name)
		if strings.HasSuffix(f.Name, ".svg") {
			textsInside(t, f.Name, f.Data)
		}
		if i >= len(b.Files) || b.Files[i].Name != f.Name || !bytes.Equal(f.Data, b.Files[i].Data) {
			t.Errorf("%s differs between two renderings of the same points", f.Name)
		}
	}
	for _, want := range []string{"limits.svg", "schedule-locking-2cpu-model.svg", "schedule-finelocking-2cpu-model.svg", "schedule-finelocking-2cpu-trace.svg"} {
		if !slices.Contains(names, want) {
			t.Errorf("report has no %s: %v", want, names)
		}
	}
}

// TestOldFilesRenderAsBefore checks that a results file from before the
// model, whose source is the host name, draws the same page and charts as
// the same points written now, source "measured".
func TestOldFilesRenderAsBefore(t *testing.T) {
	if race.Enabled {
		// Two renderings compared byte for byte: report starts no
		// goroutine, so the detector has nothing of its own to watch
		// (22-59 s each under it, 2026-11-28).
		t.Skip("renders twice and compares: go test ./report checks it")
	}
	t.Parallel()
	old := studyPoints()
	for i := range old {
		old[i].Source = old[i].Host.Name
	}
	a, err := build(t, old)
	if err != nil {
		t.Fatal(err)
	}
	b, err := build(t, studyPoints())
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range a.Files {
		if strings.HasPrefix(f.Name, "results.") {
			continue // these hold the source as given
		}
		if !bytes.Equal(f.Data, b.Files[i].Data) {
			t.Errorf("%s differs between an old file and a new one of the same points", f.Name)
		}
	}
}

func TestPageContent(t *testing.T) {
	t.Parallel()
	r, err := build(t, studyPoints())
	if err != nil {
		t.Fatal(err)
	}
	page := string(r.Files[0].Data)
	for _, want := range []string{
		"18 points of 9 modes on 1, 2 CPUs, measured on host testhost",
		"Test CPU @ 2.0GHz", "go1.26.8", "linux/amd64",
		"closed loop: one customer per CPU", "0.2s, 1s per point", "grind 1 ms, press 1 ms, steam 1 ms, latte 1 ms",
		`id="chart-throughput"`, `id="chart-latency"`, `id="chart-distribution"`,
		`src="data:image/svg&#43;xml;base64,`, // html/template escapes the + in attributes
		// locking's kitchen lock at 2 CPUs: held and waited for (these
		// points have no working time)
		"<h3>locking</h3>", "<th>kitchen</th>", "<td>100 % / - / 4.00 ms</td>",
		// the answer first
		`<section id="verdict" class="verdict">`, "On 2 CPUs, measured on host testhost:", `id="chart-limits"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page does not contain %q", want)
		}
	}
	points := page[strings.Index(page, `id="points-table"`):]
	if n := strings.Count(points, "<tr><td class=\"text\">linearpipe-1</td>"); n != 2 {
		t.Errorf("points table has %d rows for linearpipe-1, want 2", n)
	}
	if strings.Contains(page, "2026-11-21") {
		t.Errorf("page shows the measuring time; it must not, so that re-rendering gives the same bytes")
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Errorf("page refers to the network; it must open from disk alone")
	}
}

func TestOneCPUCountSaysSo(t *testing.T) {
	t.Parallel()
	var points []results.Point
	for _, p := range studyPoints() {
		if p.CPUs == 2 {
			points = append(points, p)
		}
	}
	r, err := build(t, points)
	if err != nil {
		t.Fatal(err)
	}
	page := string(r.Files[0].Data)
	if n := strings.Count(page, `class="empty"`); n != 4 {
		t.Errorf("page says %d times that a picture has nothing to show, want 4 (throughput, latency, scalability, and the map of limits: no point has a causal profile)", n)
	}
	if n := strings.Count(page, `<img src="data:image/svg`); n != 2 {
		t.Errorf("page draws %d pictures, want the distribution and the comparison only", n)
	}
	for _, f := range r.Files {
		if strings.HasPrefix(f.Name, "throughput.") || strings.HasPrefix(f.Name, "latency.") {
			t.Errorf("report holds %s for a chart with nothing to show", f.Name)
		}
	}
}

func TestManySourcesAreLabelled(t *testing.T) {
	t.Parallel()
	a, b, old := studyPoints(), studyPoints(), studyPoints()
	for i := range b {
		b[i].Host.Name = "bighost"
		b[i].Throughput *= 2
		old[i].Source = "oldlabel" // a file from before the model, run with --source
	}
	r, err := build(t, append(append(a, b...), old...))
	if err != nil {
		t.Fatal(err)
	}
	page := string(r.Files[0].Data)
	for _, want := range []string{"measured on hosts testhost, bighost, oldlabel", "<th class=\"text\">source</th>",
		`<tr><td class="text">bighost</td><td class="text">locking</td>`,
		`<tr><td class="text">oldlabel</td><td class="text">locking</td>`,
		"<h3>locking (bighost)</h3>", `<td class="text">bighost</td><td class="text">Test CPU @ 2.0GHz</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("page does not contain %q", want)
		}
	}
	for _, model := range []string{`id="model"`, "(model)", `<tr class="model">`, "predicted", "<th>ceiling</th>"} {
		if strings.Contains(page, model) {
			t.Errorf("a page of measurements shows %s", model)
		}
	}
}

// TestPageTellsModelFromMeasurements checks that the page never passes a
// prediction off as a measurement: the summary counts each, the machine
// section lists only the machine that measured, a model section says what
// the rest are, and the table marks the model's rows and gives its bounds.
func TestPageTellsModelFromMeasurements(t *testing.T) {
	t.Parallel()
	model := modelPoints(64)
	r, err := build(t, append(studyPoints(), model...))
	if err != nil {
		t.Fatal(err)
	}
	page := string(r.Files[0].Data)
	for _, want := range []string{
		"594 points of 9 modes on 1–64 CPUs: 18 measured on host testhost, 576 predicted by the model",
		`<td class="text">testhost</td><td class="text">Test CPU @ 2.0GHz</td><td>2</td><td class="text">go1.26.8</td><td class="text">linux/amd64</td><td>18</td>`,
		`<h3>Model</h3>`, `<td class="text">fifo</td><td class="text">ideal, locking, finelocking`, `<td class="text">1–64 CPUs</td><td class="text">1</td><td>576</td>`,
		"<th>points are</th>", `<td class="text">measured</td><td class="text">ideal, locking`, `<td class="text">model</td>`, "0.1s, 1s per point, simulated",
		`<th class="text">source</th>`, "<th>ceiling</th>", "<th>min ms</th>",
		`<tr><td class="text">testhost</td><td class="text">finelocking</td><td>2</td>`,
		`<tr class="model"><td class="text">model (fifo)</td><td class="text">finelocking</td><td>64</td><td>64</td><td>1176.0</td><td>1200.0</td>`,
		`<tr class="model"><td class="text">model (fifo)</td><td class="text">ideal</td><td>64</td><td>64</td><td>15680.0</td><td>16000.0</td>`,
		"<h3>finelocking (model)</h3>", "the dashed line in the same colour is the model&#39;s prediction",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page does not contain %q", want)
		}
	}
	if n := strings.Count(page, `<tr class="model">`); n != len(model) {
		t.Errorf("%d rows marked model, want %d", n, len(model))
	}
	// A measured row has no bound: its bound cells say so.
	if want := `<tr><td class="text">testhost</td><td class="text">finelocking</td><td>2</td><td>2</td><td>498.0</td><td>-</td>`; !strings.Contains(page, want) {
		t.Errorf("measured row does not leave the bound empty: want %q", want)
	}

	// The model alone: no machine to show.
	r, err = build(t, model)
	if err != nil {
		t.Fatal(err)
	}
	page = string(r.Files[0].Data)
	for _, want := range []string{"576 points of 9 modes on 1–64 CPUs, predicted by the model",
		"No point here was measured on a machine: every one is a prediction of the model."} {
		if !strings.Contains(page, want) {
			t.Errorf("model-only page does not contain %q", want)
		}
	}
	if strings.Contains(page, "<th>CPU</th>") || strings.Contains(page, ", measured on") {
		t.Error("model-only page shows a machine the points were measured on")
	}
}

func TestWriteDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "new", "report")
	if err := CheckDir(dir); err != nil {
		t.Fatalf("CheckDir of a folder that can be made: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "..")); err == nil {
		t.Errorf("CheckDir created the folder; it must create nothing")
	}
	full, err := build(t, studyPoints())
	if err != nil {
		t.Fatal(err)
	}
	if err := full.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range full.Files {
		got, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s: not written as built (%v)", f.Name, err)
		}
		if info, err := os.Stat(filepath.Join(dir, f.Name)); err == nil && info.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", f.Name, info.Mode().Perm())
		}
	}
	// A later report with one CPU count must not leave the old lines
	// beside a page that says there are none.
	one, err := build(t, studyPoints()[9:])
	if err != nil {
		t.Fatal(err)
	}
	if err := one.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(testkit.DirNames(t, dir), " "); got != "comparison.png comparison.svg distribution.png distribution.svg index.html results.csv results.json" {
		t.Errorf("folder holds %s; want the second report's files only, no stale charts or temporary files", got)
	}
}

func TestCheckDirRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{file, "is a file; want a folder"},
		{filepath.Join(file, "sub"), "is a file"},
	} {
		err := CheckDir(c.dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckDir(%s) = %v, want an error saying %q", c.dir, err, c.want)
		}
	}
	if os.Getuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := CheckDir(filepath.Join(ro, "report")); err == nil || !strings.Contains(err.Error(), "cannot write in") {
			t.Errorf("CheckDir in a read-only folder = %v, want cannot write", err)
		}
	}
}

func TestBuildRefusesNoPoints(t *testing.T) {
	t.Parallel()
	if _, err := Build(nil, nil); err == nil {
		t.Error("Build(nil) made a report of nothing")
	}
}

// build builds the report of points as they are, with what answered
// reads from them.
func build(t testing.TB, points []results.Point) (*Report, error) {
	t.Helper()
	return Build(points, answered(t, points))
}

// answered is the analysis of points read from them as they are —
// the answer and the fits — with no causal profile, advice or schedule
// simulated.
func answered(t testing.TB, points []results.Point) *analysis.Analysis {
	t.Helper()
	a := analyze.Answer(points, coffee.Declared{})
	fits, err := analyze.Fits(points)
	if err != nil {
		t.Fatal(err)
	}
	a.Fits = fits
	return a
}

// analyzed is the analysis of points, as the main job makes it: it gives
// the shop's points without a causal profile one under the fifo policy.
func analyzed(t testing.TB, points []results.Point) *analysis.Analysis {
	t.Helper()
	a, err := experiment.Analyze(points, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestPageShowsBands: a prediction with a band (the go policy's) shows it
// in the points table and, for the best modes, in the verdict's table,
// where issue 57 saw "1822" with no band; a page of predictions without
// bands has no band column.
func TestPageShowsBands(t *testing.T) {
	t.Parallel()
	points := modelPoints(2)
	page := func(ps []results.Point) string {
		r, err := build(t, ps)
		if err != nil {
			t.Fatal(err)
		}
		return string(r.Files[0].Data)
	}
	if strings.Contains(page(points), "<th>band</th>") {
		t.Error("predictions without bands: the points table has a band column")
	}
	for i := range points {
		thr := points[i].Throughput
		points[i].Band = &results.Band{Throughput: [2]float64{thr - 7, thr + 3}, P50Ms: [2]float64{points[i].Latency.P50, points[i].Latency.P50}}
	}
	html := page(points)
	last := points[len(points)-1]
	want := fmt.Sprintf("<td>%.0f–%.0f</td>", last.Band.Throughput[0], last.Band.Throughput[1])
	if !strings.Contains(html, "<th>band</th>") || !strings.Contains(html, want) {
		t.Errorf("the points table shows no band column with %s", want)
	}
	if !regexp.MustCompile(`<td[^>]*>\d+(–\d+)? \[\d+–\d+\]</td>`).MatchString(html) {
		t.Error("the verdict's table shows no prediction's band in brackets")
	}
}

// TestPageAnswerSaysCaveats: the page's answer says the model's note on a
// figure it states, and its table's gain says what figure the gain is
// from, as the terminal's answer does (text.TestCaveatsInTheAnswer).
func TestPageAnswerSaysCaveats(t *testing.T) {
	t.Parallel()
	points := modelPoints(2)
	rough := results.Caveat{Kind: results.CaveatShortHold, Resource: "kitchen", Under: 100}
	for i := range points {
		points[i].Caveats = []results.Caveat{rough}
		points[i].Bottleneck = &results.Bottleneck{Resource: "cpus", Resources: []string{"cpus"}, Named: "the CPUs", Gain: 0.5,
			Model: "model (fifo)", Recommend: []string{"one more CPU"}}
	}
	r, err := build(t, points)
	if err != nil {
		t.Fatal(err)
	}
	page := string(r.Files[0].Data)
	// html/template writes "+" as "&#43;".
	for _, want := range []string{"as rough: " + text.CaveatBrief(rough), "50 % (from a rough figure)"} {
		if !strings.Contains(page, html.EscapeString(want)) {
			t.Errorf("the page's answer does not say %q", want)
		}
	}
}
