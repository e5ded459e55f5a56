package driver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
)

// TestRealLibsLocks: bench --locks and predict on libraries nobody here
// wrote (testdata/reallibs, versions pinned in its go.mod): which lock is
// whose, named where it is called, one group per lock; and predict says
// one thing of every benchmark. Counts and times are not checked, only
// what the libraries' sources make certain (doc comments in
// testdata/reallibs).
func TestRealLibsLocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs real libraries' benchmarks with the overlay")
	}
	dir, err := filepath.Abs("testdata/reallibs")
	if err != nil {
		t.Fatal(err)
	}
	list := exec.Command("go", "list", "-test", "-deps", ".")
	list.Dir = dir
	list.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := list.CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("testdata/reallibs' modules are not downloaded (.ci/run downloads them): %v\n%s", err, out)
		}
		t.Skipf("testdata/reallibs' modules are not downloaded (.ci/run downloads them): %s", firstLineOf(string(out)))
	}
	t.Parallel()
	measured := filepath.Join(t.TempDir(), "measured.json")
	bench := []string{"bench", ".", "-bench", "Rate|Metrics|Cmap|Logrus|SyncMap", "-cpu", "1,2",
		"-benchtime", "40ms", "--locks", "--format", "json", "--out", filepath.Join(t.TempDir(), "report")}
	code, js, stderr := brewputIn(context.Background(), t, dir, noChild(), bench...)
	if code != exitOK {
		t.Fatalf("brewput %q in %s: exit %d; stderr:\n%s", bench, dir, code, stderr)
	}
	if err := os.WriteFile(measured, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	points, err := results.ReadFile(measured)
	if err != nil {
		t.Fatal(err)
	}
	type group struct {
		kind        string
		locks       int
		uses, reads int64
		goroutines  int
		takers      float64
		via         string
	}
	groupsOf := func(p results.Point) map[string]group {
		out := map[string]group{}
		for _, m := range p.Bench.Locks {
			g := out[results.MeterGroup(m.Name)]
			g.kind, g.locks, g.uses, g.reads, g.goroutines, g.takers, g.via = m.Kind, g.locks+1, g.uses+m.Uses, g.reads+m.Reads, m.Goroutines, m.Takers, m.Via
			out[results.MeterGroup(m.Name)] = g
		}
		return out
	}
	byMode := map[string]map[string]group{} // on 2 CPUs, where both goroutines take them
	for _, p := range points {
		if p.CPUs == 2 {
			byMode[p.Mode] = groupsOf(p)
		}
	}
	// only is the group whose name holds part, the one of the
	// benchmark's that took a measurable share (sync.Pool's may show too).
	only := func(mode, part string) (string, group) {
		t.Helper()
		for name, g := range byMode[mode] {
			if strings.Contains(name, part) {
				return name, g
			}
		}
		t.Errorf("%s: no lock group …%s…, groups %v", mode, part, byMode[mode])
		return "", group{}
	}

	// Identity: one limiter or histogram for both of b.RunParallel's
	// goroutines, or one each.
	for _, c := range []struct{ mode, site string }{
		{"Rate/limiter=", "(*Limiter).reserveN at rate.go:"},
		{"Metrics/hist=", "(*UniformSample).Update at sample.go:"},
	} {
		if _, g := only(c.mode+"shared", c.site); g.locks != 1 || g.goroutines != 2 || g.takers != 2 {
			t.Errorf("%sshared: %+v, want one lock taken by 2 goroutines", c.mode, g)
		}
		// Sampled one Lock in 256, a busy machine's short run may note
		// only one of the two locks: each is still taken by one goroutine.
		if _, g := only(c.mode+"pergoroutine", c.site); g.locks < 1 || g.locks > 2 || g.takers != 1 {
			t.Errorf("%spergoroutine: %+v, want 2 locks (1 where the sample missed one), each taken by 1 goroutine", c.mode, g)
		}
	}
	// Grouping: Set's write locks and Get's read locks are the same
	// RWMutexes, one group of the shards, which both of b.RunParallel's
	// goroutines take (keys at random): a shared set, not a lock each.
	for _, c := range []struct {
		mode  string
		locks int
	}{{"Cmap/shards=1", 1}, {"Cmap/shards=32", 32}} {
		name, g := only(c.mode, "ConcurrentMap[...].")
		if !strings.Contains(name, "Set at concurrent_map.go:") || !strings.Contains(name, "Get at concurrent_map.go:") ||
			g.kind != meter.KindRWMutex || g.reads == 0 || g.reads >= g.uses || g.locks < c.locks*7/8 || g.locks > c.locks*9/8 ||
			g.goroutines < 2 || g.takers < 1.5 {
			t.Errorf("%s: group %q %+v, want Set and Get one rwmutex group of about %d locks with reads, each taken by 2 goroutines or more",
				c.mode, name, g, c.locks)
		}
	}
	// Naming: logrus's sites are its callers of MutexWrap.Lock, one group,
	// the wrapper a detail.
	for _, mode := range []string{"Logrus/out=slow/lock=shared", "Logrus/out=discard/lock=shared"} {
		name, g := only(mode, " at entry.go:")
		logger := 0 // groups of logrus's sites (sync.Once's and sync.Pool's may show too)
		for n := range byMode[mode] {
			if strings.Contains(n, "entry.go:") || strings.Contains(n, "logger.go:") {
				logger++
			}
		}
		if strings.Contains(strings.ToLower(name), "mutexwrap") || g.locks != 1 || logger != 1 || !strings.Contains(strings.ToLower(g.via), "mutexwrap).lock at logger.go:") {
			t.Errorf("%s: groups %v, want one lock named at its callers in entry.go and logger.go", mode, byMode[mode])
		}
	}
	// Without its lock, logrus takes none of its own: sync.Pool's slow path
	// and a sync.Once's first call are the standard library's.
	for n := range byMode["Logrus/out=slow/lock=none"] {
		if !strings.Contains(n, "(*Pool).") && !strings.Contains(n, "(*Once).") {
			t.Errorf("Logrus with SetNoLock: groups %v, want none but sync.Pool's and sync.Once's", byMode["Logrus/out=slow/lock=none"])
			break
		}
	}

	// predict says one thing of each benchmark: points or a not_predicted
	// record with its reason, never both, on every output.
	stdout, stderr := succeeds(t, noChild(), "predict", "--from", measured, "--cpus", "1,2,4", "--format", "json")
	f, err := results.Read([]byte(stdout))
	if err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	predicted := map[string]map[int]float64{}
	for _, p := range f.Points {
		mode := strings.TrimPrefix(p.Bench.Name, "Benchmark")
		if predicted[mode] == nil {
			predicted[mode] = map[int]float64{}
		}
		predicted[mode][p.CPUs] = p.Throughput
	}
	var modes []string
	for _, p := range points {
		if !slices.Contains(modes, p.Mode) {
			modes = append(modes, p.Mode)
		}
	}
	for _, mode := range modes {
		i := slices.IndexFunc(f.NotPredicted, func(np results.NotPredicted) bool { return np.Mode == mode })
		switch {
		case i >= 0 && predicted[mode] != nil:
			t.Errorf("%s: both predicted (%v) and not predicted (%s)", mode, predicted[mode], f.NotPredicted[i].Reason)
		case i < 0 && len(predicted[mode]) != 3:
			t.Errorf("%s: predicted on %d CPU counts, and no not_predicted record", mode, len(predicted[mode]))
		case i >= 0 && (f.NotPredicted[i].Reason == "" || !notPredictedNames(stderr)[mode]):
			t.Errorf("%s: not predicted %+v; stderr:\n%s", mode, f.NotPredicted[i], stderr)
		}
	}
	// The text says the same: a "Not predicted" line naming each variant the
	// JSON says is not, and a row of the table for the others alone, under
	// its family, named as the JSON's ranking names it.
	table, _ := succeeds(t, noChild(), "predict", "--from", measured, "--cpus", "4")
	rows := map[string]bool{} // family|name
	family := ""
	for _, line := range strings.Split(table, "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) == 1 && !strings.HasPrefix(line, " ") && strings.HasSuffix(line, ":"):
			family = strings.TrimSuffix(line, ":")
		case len(fields) > 2 && strings.HasPrefix(line, "  "):
			rows[family+"|"+fields[0]] = true
		}
	}
	named := map[string]string{}
	for _, r := range f.Rankings {
		for _, v := range r.Ranked {
			if r.CPUs == 4 {
				named[v.Mode] = r.Group + "|" + v.Name
			}
		}
	}
	said := notPredictedNames(table)
	for _, mode := range modes {
		np := slices.ContainsFunc(f.NotPredicted, func(np results.NotPredicted) bool { return np.Mode == mode })
		row := named[mode] != "" && rows[named[mode]]
		if said[mode] != np || row == np {
			t.Errorf("%s: not predicted in JSON %v; the text says not predicted %v, has a row %v:\n%s", mode, np, said[mode], row, table)
		}
	}
	// predict reads each benchmark as one kind of contention, the same on
	// every count it predicts. Which kind is a measured hold's share of an
	// operation (on a busy machine a shared limiter's reads otherwise), so
	// only which lock is whose is held above, not the kind.
	kinds := map[string]string{}
	for _, p := range f.Points {
		mode := strings.TrimPrefix(p.Bench.Name, "Benchmark")
		switch {
		case p.Band == nil || p.Band.Shape == "":
			t.Errorf("%s on %d CPUs: predicted with no kind of contention read", mode, p.CPUs)
		case kinds[mode] != "" && kinds[mode] != p.Band.Shape:
			t.Errorf("%s: read as %q and as %q", mode, kinds[mode], p.Band.Shape)
		default:
			kinds[mode] = p.Band.Shape
		}
	}

	// A package of no lock gets an answer, not an exit 1.
	stdout, _ = succeeds(t, noChild(), "predict", "--from", measured, "-bench", "SyncMap", "--cpus", "1,2,4")
	if !strings.Contains(stdout, "SyncMap/writes=none") {
		t.Errorf("predict of sync.Map alone answers:\n%s", stdout)
	}
}

// firstLineOf is s's first line.
func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// notPredictedNames are the benchmarks predict's "Not predicted: A, B and
// C: why." lines in text name.
func notPredictedNames(text string) map[string]bool {
	out := map[string]bool{}
	flat := strings.Join(strings.Fields(text), " ")
	for _, part := range strings.Split(flat, "Not predicted: ")[1:] {
		names, _, _ := strings.Cut(part, ": ")
		for _, n := range strings.Split(strings.ReplaceAll(names, " and ", ", "), ", ") {
			out[n] = true
		}
	}
	return out
}
