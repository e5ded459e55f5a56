package logs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

func TestValidate(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "kinds", Edit: func(c *Config) { c.Kinds = nil }},
		{Flag: "kinds", Edit: func(c *Config) { c.Kinds = []Kind{"tape"} }},
		{Flag: "kinds", Edit: func(c *Config) { c.Kinds = []Kind{File, Memory, File} }},
		{Flag: "writers", Edit: func(c *Config) { c.Writers = nil }},
		{Flag: "writers", Edit: func(c *Config) { c.Writers = []int{1, 0} }},
		{Flag: "writers", Edit: func(c *Config) { c.Writers = []int{1 << 20} }},
		{Flag: "writers", Edit: func(c *Config) { c.Writers = []int{4, 4} }},
		{Flag: "appends", Edit: func(c *Config) { c.Appends = 0 }},
		{Flag: "appends", Edit: func(c *Config) { c.Appends = 1 << 40 }},
		{Flag: "appends", Edit: func(c *Config) { c.Appends = 16 }}, // fewer than 32 writers
		{Flag: "appends", Edit: func(c *Config) { c.Appends, c.ValueBytes = 5_000_000, 1<<20 }},
		{Flag: "value-bytes", Edit: func(c *Config) { c.ValueBytes = 7 }},
		{Flag: "value-bytes", Edit: func(c *Config) { c.ValueBytes = 1 << 30 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 0 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 1000 }},
		{Flag: "dir", Edit: func(c *Config) { c.Dir = "/nonexistent/folder" }},
		{Flag: "dir", Edit: func(c *Config) { c.Dir = file }},
	})
}

func TestVariantNames(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		sync bool
		want string
	}{
		{Memory, false, "memory"}, {Memory, true, "memory"},
		{File, false, "file"}, {File, true, "file-sync"},
		{LevelDB, false, "leveldb"}, {LevelDB, true, "leveldb-sync"},
	} {
		v := Variant(tc.kind, tc.sync)
		if v != tc.want {
			t.Errorf("Variant(%s, %v) = %q, want %q", tc.kind, tc.sync, v, tc.want)
		}
	}
}

// TestRun checks the points' contract on a small sweep without a single
// writer among the writer counts, so that the reference is measured on
// its own, and checks that the logs' folder is gone afterwards.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	c := Config{Kinds: Kinds(), Writers: []int{3, 2}, Appends: 300, ValueBytes: 20, Dir: dir, Reps: 2}
	cpus := []int{1, 2}
	points, _ := labtest.RunLab(t, labtest.With(NewLab(), c), cpus, len(cpus)*len(c.Kinds)*len(c.Writers), Unit, metrics())
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("Run left %d entries in its folder, first %s", len(left), left[0].Name())
	}
	checkPoints(t, c, points)
	if points[0].Par != 3 || points[1].Par != 2 || points[0].Variant() != "memory" || points[2].Variant() != "file" {
		t.Errorf("points out of order: %s/%d, %s/%d, %s", points[0].Variant(), points[0].Par, points[1].Variant(), points[1].Par, points[2].Variant())
	}
}

// metrics lists the lab's metrics.
func metrics() []results.Metric {
	return []results.Metric{MetricWriters, MetricAppends, MetricWallS, MetricLatencySumS, MetricOverstatement, MetricNaiveRate,
		MetricOfSingle, MetricSingleRate, MetricVerified, MetricValueBytes, MetricSync}
}

// TestRunInterval: with 6 runs a point carries the interval of its runs'
// median appends/s, around its median run's, and its line gives it.
func TestRunInterval(t *testing.T) {
	c := Config{Kinds: []Kind{Memory}, Writers: []int{2}, Appends: 300, ValueBytes: 20, Dir: t.TempDir(), Reps: lab.IntervalRuns()}
	points, told := labtest.RunLab(t, labtest.With(NewLab(), c), []int{1}, 1, Unit,
		append(metrics(), lab.Lo(lab.MetricThroughput), lab.Hi(lab.MetricThroughput)))
	lines := labtest.Lines(told, text.LabEvent)
	p := points[0]
	lo, hi := p.Metrics[lab.Lo(lab.MetricThroughput)], p.Metrics[lab.Hi(lab.MetricThroughput)]
	line := strings.ReplaceAll(lines[len(lines)-1], "\n  ", " ")
	if !(0 < lo && lo <= p.Throughput && p.Throughput <= hi) || !strings.Contains(line, fmt.Sprintf("[%s, %s]", format.Rate(lo, Unit), format.Rate(hi, Unit))) {
		t.Errorf("throughput %g in [%g, %g]; line %q", p.Throughput, lo, hi, line)
	}
}

// TestRunSync: with sync the file and LevelDB variants are named so and
// say so; the memory log is measured as it is.
func TestRunSync(t *testing.T) {
	c := Config{Kinds: Kinds(), Writers: []int{1, 4}, Appends: 40, ValueBytes: 8, Sync: true, Reps: 1}
	points, err := Run(context.Background(), c, []int{2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	labtest.LabPoints(t, Name, Unit, metrics(), points)
	checkPoints(t, c, points)
	var names []string
	for _, p := range points {
		names = append(names, p.Variant())
	}
	if got := strings.Join(names, " "); got != "memory memory file-sync file-sync leveldb-sync leveldb-sync" {
		t.Errorf("variants %s", got)
	}
}

// checkPoints checks what every point of a run of c must hold, timing
// or not.
func checkPoints(t *testing.T, c Config, points []results.Point) {
	t.Helper()
	single := map[string]float64{}
	for _, p := range points {
		name, synced := strings.CutSuffix(p.Variant(), "-sync")
		kind := Kind(name)
		if !slices.Contains(Kinds(), kind) || p.Variant() != Variant(kind, synced) {
			t.Fatalf("variant %q: not a kind's", p.Variant())
		}
		if p.Ops != int64(c.Appends) || p.Hist == "" {
			t.Errorf("%s: %d appends, histogram %q", p.Variant(), p.Ops, p.Hist)
		}
		if synced != (c.Sync && kind != Memory) {
			t.Errorf("%s with Sync %v", p.Variant(), c.Sync)
		}
		m := p.Metrics
		tw := float64(p.Par)
		if m["writers"] != tw || m["appends"] != float64(c.Appends) || m["verified"] != 1 || m["value_bytes"] != float64(c.ValueBytes) ||
			m["sync"] != map[bool]float64{true: 1, false: 0}[synced] {
			t.Errorf("%s writers=%d: metrics %v", p.Variant(), p.Par, m)
		}
		if p.Dur.Seconds() <= 0 || m["wall_s"] != p.Dur.Seconds() || !near(p.Throughput, float64(c.Appends)/p.Dur.Seconds()) {
			t.Errorf("%s writers=%d: %g s, %g appends/s", p.Variant(), p.Par, p.Dur.Seconds(), p.Throughput)
		}
		// A writer's appends follow one another within the wall time, so
		// their latencies add up to at most t times it: exactly, not a
		// timing claim.
		if sum := m["latency_sum_s"]; sum <= 0 || sum > tw*p.Dur.Seconds() || !near(m["overstatement"], sum/p.Dur.Seconds()) || !near(m["naive_appends_per_s"], float64(c.Appends)/sum) {
			t.Errorf("%s writers=%d: latency sum %g s over %g s of wall time, overstatement %g", p.Variant(), p.Par, sum, p.Dur.Seconds(), m["overstatement"])
		}
		if !near(m["of_single"], p.Throughput/m["single_appends_per_s"]) || p.Par == 1 && m["of_single"] != 1 {
			t.Errorf("%s writers=%d: of_single %g, %g ÷ %g", p.Variant(), p.Par, m["of_single"], p.Throughput, m["single_appends_per_s"])
		}
		key := fmt.Sprintf("%s cpus=%d", p.Variant(), p.CPUs)
		if s, ok := single[key]; ok && s != m["single_appends_per_s"] {
			t.Errorf("%s: two single-writer references, %g and %g", key, s, m["single_appends_per_s"])
		}
		single[key] = m["single_appends_per_s"]
		if n := p.Latency; n.P50 <= 0 || n.Max < n.P50 || n.Mean <= 0 {
			t.Errorf("%s writers=%d: latency %+v", p.Variant(), p.Par, n)
		}
		if h, err := p.Histogram(); err != nil || h.TotalCount() != int64(c.Appends) {
			t.Errorf("%s writers=%d: histogram of %d latencies, %v; want %d", p.Variant(), p.Par, h.TotalCount(), err, c.Appends)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// TestCancel: a cancelled sweep returns the points it finished and the
// context's error, and one cancelled in the middle of a run stops its
// writers at once and leaves neither goroutine (TestMain) nor file.
func TestCancel(t *testing.T) {
	c := Config{Kinds: []Kind{Memory, File}, Writers: []int{1, 2}, Appends: 200, ValueBytes: 16, Reps: 1}
	labtest.CancelAfter(t, labtest.With(NewLab(), c), []int{1}, text.LabEvent, "writers=1", 1)

	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	c = Config{Kinds: []Kind{File}, Writers: []int{4}, Appends: 2_000_000, ValueBytes: 8, Dir: dir, Reps: 1}
	start := time.Now()
	if _, err := Run(ctx, c, []int{2}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run past its deadline: %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Run took %v to stop", d)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a cancelled Run left %d entries in its folder", len(left))
	}
}

// The flags set the configuration's fields; --sync without --appends
// makes the smaller sync default.
func TestBind(t *testing.T) {
	dir := t.TempDir()
	want := Config{Kinds: []Kind{Memory, File}, Writers: []int{1, 4}, Appends: 400, ValueBytes: 24, Dir: dir, Reps: 2}
	labtest.Binds(t, NewLab(), want, "--kinds", "memory,file", "--writers", "1,4", "--appends", "400", "--value-bytes", "24", "--dir", dir, "--reps", "2")
	if u := labtest.Usage(NewLab(), "appends"); !strings.Contains(u, strconv.Itoa(DefaultSyncAppends)) {
		t.Errorf("--appends says %q, not the sync default %d", u, DefaultSyncAppends)
	}
	l := NewLab()
	if err := labtest.Bind(l, "--sync"); err != nil || !l.Config.Sync || l.Config.Appends != DefaultSyncAppends {
		t.Errorf("--sync: config %+v, %v; want %d appends", l.Config, err, DefaultSyncAppends)
	}
	for _, c := range []struct{ arg, want string }{{"--kinds=tape", `--kinds "tape"`}, {"--writers=0", "--writers 0"}, {"--appends=10", "--appends 10"}} {
		if err := labtest.Bind(NewLab(), c.arg); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.arg, err, c.want)
		}
	}
}
