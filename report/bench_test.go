package report

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goBenchOutput is go test -bench output on 1, 2 and 4 CPUs for one
// benchmark, on 2 CPUs only for another, of another package (one package's
// would be compared).
const goBenchOutput = `goos: linux
goarch: amd64
pkg: example.com/kv
cpu: Test CPU
BenchmarkGet         	10000000	       100 ns/op	       0 B/op
BenchmarkGet-2       	10000000	        55 ns/op	       0 B/op
BenchmarkGet-4       	10000000	        30 ns/op	       0 B/op
pkg: example.com/kvput
BenchmarkPut-2       	10000000	       300 ns/op	      16 B/op
PASS
`

func benchPoints(t *testing.T) []results.Point {
	t.Helper()
	points, err := results.ReadBench(strings.NewReader(goBenchOutput), "kv.txt")
	if err != nil {
		t.Fatal(err)
	}
	return points
}

// TestBenchSection: Go benchmarks get a section of their own, a chart
// each of throughput against CPUs with the scaling law fitted where there
// are three CPU counts, the reason where there is one, their values in a
// table; beside the shop's points, both sections are there.
func TestBenchSection(t *testing.T) {
	t.Parallel()
	points := append(studyPoints(), benchPoints(t)...)
	r, err := build(t, points)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var page string
	for _, f := range r.Files {
		names = append(names, f.Name)
		if f.Name == Index {
			page = string(f.Data)
		}
		if strings.HasSuffix(f.Name, ".svg") {
			textsInside(t, f.Name, f.Data)
		}
	}
	for _, want := range []string{"bench-Get.svg", "bench-Get.png", "throughput.svg"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s in %v", want, names)
		}
	}
	if slices.Contains(names, "bench-Put.svg") {
		t.Errorf("a chart of one CPU count was drawn")
	}
	for _, want := range []string{`id="benchmarks"`, "Go benchmarks", "example.com/kv", "Only one CPU count (2) was measured",
		"1 CPU count (2); a fit needs at least 3", "B/op", `id="modes"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !strings.Contains(page, "<td>3</td></tr>") { // Get's fit row: three CPU counts
		t.Errorf("no fit row of three CPU counts")
	}
	if strings.Contains(page, `<td class="text wrap mode">Get</td>`) {
		t.Errorf("a Go benchmark's point got a bottleneck row")
	}
}

// TestBenchTopLevelCompared: one package's benchmarks whose names share
// nothing (BenchmarkMutex, BenchmarkSharded) are one family, in the
// terminal's answer and on the page, titled by their names, never "*".
func TestBenchTopLevelCompared(t *testing.T) {
	t.Parallel()
	const out = `pkg: example.com/locks
BenchmarkMutex 1000 100 ns/op
BenchmarkMutex-2 1000 90 ns/op
BenchmarkSharded 1000 100 ns/op
BenchmarkSharded-2 1000 50 ns/op
`
	points, err := results.ReadBench(strings.NewReader(out), "locks.txt")
	if err != nil {
		t.Fatal(err)
	}
	r, err := build(t, points)
	if err != nil {
		t.Fatal(err)
	}
	var answer strings.Builder
	if err := text.WriteVerdict(&answer, r.Analysis.Verdict); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(answer.String(), "Mutex vs Sharded, measured on locks.txt:\n") || !strings.Contains(answer.String(), "Sharded") {
		t.Errorf("the terminal's answer does not compare Mutex and Sharded:\n%s", answer.String())
	}
	var page string
	var charts []string
	for _, f := range r.Files {
		if f.Name == Index {
			page = string(f.Data)
		}
		if strings.HasPrefix(f.Name, benchChartPrefix) {
			charts = append(charts, f.Name)
		}
	}
	if !strings.Contains(page, "<h3>Mutex vs Sharded</h3>") || strings.Contains(page, "<h3>*</h3>") || strings.Contains(page, ">*</a>") {
		t.Errorf("the page does not title the family Mutex vs Sharded")
	}
	if !slices.Contains(charts, "bench-Mutex_vs_Sharded.svg") {
		t.Errorf("charts %q, want one of both benchmarks", charts)
	}
}

// TestBenchChartsReplaced: a report written over an earlier one's folder
// removes the charts of benchmarks it no longer holds.
func TestBenchChartsReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, err := build(t, benchPoints(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bench-Get.png")); err != nil {
		t.Fatal(err)
	}
	r, err = build(t, studyPoints())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "bench-*")); len(matches) != 0 {
		t.Errorf("stale charts left: %v", matches)
	}
}

// TestStudyCaptions: a study's charts speak of operations, not lattes, and
// its parameters of no steps; its points are described, variant by
// variant and side by side, never explained — not even by a verdict an
// older version wrote into its file.
func TestStudyCaptions(t *testing.T) {
	t.Parallel()
	points := studyPoints()
	for i := range points {
		points[i].AsStudy("cache")
		points[i].Unit = "ops/s"
	}
	points[0].Bottleneck = &results.Bottleneck{Resource: "grinder", Text: "split it into several locks (shard it), or hold it for less"}
	r, err := build(t, points)
	if err != nil {
		t.Fatal(err)
	}
	page := string(r.Files[0].Data)
	if strings.Contains(page, "Lattes per second") || !strings.Contains(page, "Operations per second against CPUs") ||
		!strings.Contains(page, "the study&#39;s own code") {
		t.Errorf("a study's page speaks of the shop")
	}
	for _, want := range []string{`id="variants"`, "What each variant measured", "No causal profile", "The variants side by side", "Meters: time held and waits"} {
		if !strings.Contains(page, want) {
			t.Errorf("a study's page lacks %q", want)
		}
	}
	for _, never := range []string{`id="modes"`, "What limits each mode", "shard it", "limited by"} {
		if strings.Contains(page, never) {
			t.Errorf("a study's page says %q", never)
		}
	}
}

// cacheStudy is examples/cache's study as its study.Main measured it on
// a 2-CPU machine: six variants on 1 and 2 CPUs, the locks metered.
func cacheStudy(t *testing.T) []results.Point {
	t.Helper()
	points, err := results.ReadFile(filepath.Join("testdata", "cache-study.json"))
	if err != nil {
		t.Fatal(err)
	}
	return points
}

// dozenBenchmarks are twelve Go benchmarks in four families of three,
// each run 6 times on 1 and 2 CPUs with its latency histograms: the cache
// example's six as brewput bench measured them (on a busy machine), and
// the same again under another top-level name.
func dozenBenchmarks(t *testing.T) []results.Point {
	t.Helper()
	points, err := results.ReadFile(filepath.Join("testdata", "cache-bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := len(points)
	for _, p := range points[:n] {
		b := *p.Bench
		p.Bench = &b
		p.Mode = strings.Replace(p.Mode, "Cache/", "CacheAgain/", 1)
		points = append(points, p)
	}
	return points
}

// TestBenchFamilies: benchmarks that differ in one part of their names are
// a family, drawn in one chart a colour each, with its answer first on the
// page and every benchmark as benchstat shows it.
func TestBenchFamilies(t *testing.T) {
	t.Parallel()
	r, err := build(t, dozenBenchmarks(t))
	if err != nil {
		t.Fatal(err)
	}
	var charts []string
	var page string
	for _, f := range r.Files {
		if strings.HasPrefix(f.Name, benchChartPrefix) && strings.HasSuffix(f.Name, ".svg") {
			charts = append(charts, f.Name)
			textsInside(t, f.Name, f.Data)
		}
		if f.Name == Index {
			page = string(f.Data)
		}
	}
	want := []string{"bench-CacheAgain_design___load_read-latency.svg", "bench-CacheAgain_design___load_read.svg",
		"bench-CacheAgain_design___load_write-latency.svg", "bench-CacheAgain_design___load_write.svg",
		"bench-Cache_design___load_read-latency.svg", "bench-Cache_design___load_read.svg",
		"bench-Cache_design___load_write-latency.svg", "bench-Cache_design___load_write.svg"}
	slices.Sort(charts)
	if !slices.Equal(charts, want) {
		t.Errorf("charts %q, want a throughput and a latency chart per family, %q", charts, want)
	}
	answer, _, _ := strings.Cut(page, `id="machine"`)
	for _, w := range []string{`id="verdict"`, "Cache/design=*/load=write", "measured on vm", "On 2 CPUs:", "From 1 to 2 CPUs"} {
		if !strings.Contains(answer, w) {
			t.Errorf("the answer before the machine lacks %q", w)
		}
	}
	for _, w := range []string{"Cache/design=mutex/load=read-2", "sec/op", "allocs/op", "± "} {
		if !strings.Contains(page, w) {
			t.Errorf("page lacks %q", w)
		}
	}
	if strings.Contains(page, "6 modes") {
		t.Errorf("the page calls benchmarks modes")
	}
}

// TestSILabel: axis labels in SI units.
func TestSILabel(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{0: "0", 500: "500", 1500: "1.5 k", 15e6: "15 M", 2.5e6: "2.5 M", 0.25: "0.25", 1e9: "1 G"} {
		if got := siLabel(v); got != want {
			t.Errorf("siLabel(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestStudyPredicted: a study's predicted points (its predict command)
// are said in the study's answer — what its model gives on the most CPUs,
// how its band holds the measured points — and drawn on its charts, while
// what each variant measured stays the measured points' alone.
func TestStudyPredicted(t *testing.T) {
	t.Parallel()
	points := cacheStudy(t)
	var predicted []results.Point
	for _, p := range points {
		if p.CPUs != 2 || p.Rep > 1 {
			continue
		}
		for _, n := range []int{2, 64} {
			q := p
			q.Source, q.Sched, q.CPUs, q.Par, q.Rep = results.SourceModel, "go", n, n, 0
			q.Throughput = p.Throughput * float64(n) / 2
			q.Band = &results.Band{Throughput: [2]float64{0.9 * q.Throughput, 1.1 * q.Throughput}}
			q.Shop = &results.Shop{Machines: []results.Machine{{Name: "model-only-lock", Uses: 1}}}
			predicted = append(predicted, q)
		}
	}
	r, err := build(t, append(points, predicted...))
	if err != nil {
		t.Fatal(err)
	}
	page := string(r.Files[0].Data)
	for _, want := range []string{"On 64 CPUs, predicted by its model (go)", "Held against what was measured on 2 CPUs", "cache lines shared by more cores",
		"predicted by a model made of each variant's meters", "What each variant measured"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	_, variants, _ := strings.Cut(page, `id="variants"`)
	variants, _, _ = strings.Cut(variants, `id="setup"`)
	if variants == "" || strings.Contains(variants, "model-only-lock") {
		t.Errorf("what each variant measured is missing or shows a predicted point's resources")
	}
}

// TestBenchFamilyTooManyToDraw: a family of more members than the palette
// has colours is listed in its table, not drawn; its section says so.
func TestBenchFamilyTooManyToDraw(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("goos: linux\npkg: example.com/sizes\n")
	n := len(palette.Cycle()) + 1
	for i := range n {
		fmt.Fprintf(&b, "BenchmarkSort/size=%d 1000 %d ns/op\nBenchmarkSort/size=%d-2 1000 %d ns/op\n", i, 100+i, i, 60+i)
	}
	points, err := results.ReadBench(strings.NewReader(b.String()), "sizes.txt")
	if err != nil {
		t.Fatal(err)
	}
	r, err := build(t, points)
	if err != nil {
		t.Fatal(err)
	}
	var page string
	for _, f := range r.Files {
		if strings.HasPrefix(f.Name, benchChartPrefix) {
			t.Errorf("drew %s for a family of %d", f.Name, n)
		}
		if f.Name == Index {
			page = string(f.Data)
		}
	}
	for _, w := range []string{fmt.Sprintf("%d benchmarks in this family, more than the %d colours", n, len(palette.Cycle())), "Sort/size=10-2"} {
		if !strings.Contains(page, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

// TestReadFilesRefusesPastMaxPoints: a file of more points than a report
// draws is refused in a line that names it and the limit.
func TestReadFilesRefusesPastMaxPoints(t *testing.T) {
	t.Parallel()
	// The limit's check, on a limit of 10: reading MaxPoints+1 lines
	// took seconds and showed no more.
	const limit = 10
	var b strings.Builder
	b.WriteString("goos: linux\npkg: example.com/many\n")
	for i := range limit + 1 {
		fmt.Fprintf(&b, "BenchmarkX/n=%d 1000 100 ns/op\n", i)
	}
	path := filepath.Join(t.TempDir(), "many.bench")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readFiles([]string{path}, limit+1); err != nil {
		t.Errorf("readFiles of %d points, limit %d: %v", limit+1, limit+1, err)
	}
	_, err := readFiles([]string{path}, limit)
	if err == nil || !strings.Contains(err.Error(), "many.bench: 11 points, more than the 10 points a report draws") {
		t.Errorf("readFiles of %d points, limit %d: %v, want it refused naming the file and the limit", limit+1, limit, err)
	}
}
