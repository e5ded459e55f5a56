package bench_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brewput/brewput/measure/bench"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// benchtime sets go test's -benchtime for the testing.Benchmark calls of
// one test, so that they take a fixed number of calls, not a second.
func benchtime(t *testing.T, v string) {
	f := flag.Lookup("test.benchtime")
	old := f.Value.String()
	if err := f.Value.Set(v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}

// TestParallelReportsPercentiles: every call is counted once, and the
// percentiles are ordered and no shorter than the body takes at least.
func TestParallelReportsPercentiles(t *testing.T) {
	benchtime(t, "200x")
	hist := filepath.Join(t.TempDir(), "hist.jsonl")
	t.Setenv(bench.HistEnv, hist)
	var calls atomic.Int64
	const least = 200 * time.Microsecond
	r := testing.Benchmark(func(b *testing.B) {
		bench.Parallel(b, func() {
			calls.Add(1)
			time.Sleep(least)
		})
	})
	if r.N != 200 {
		t.Fatalf("N = %d, want 200", r.N)
	}
	p50, p99, p999 := r.Extra[bench.UnitP50], r.Extra[bench.UnitP99], r.Extra[bench.UnitP999]
	if !(float64(least) <= p50 && p50 <= p99 && p99 <= p999) {
		t.Errorf("p50 %v, p99 %v, p99.9 %v ns: want ordered and each ≥ %v", p50, p99, p999, least)
	}
	// testing.Benchmark runs the body once with N = 1, then with N = 200.
	if got := calls.Load(); got != 201 {
		t.Errorf("%d calls, want 1 + 200", got)
	}

	data, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	var recs []bench.Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec bench.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		recs = append(recs, rec)
	}
	if len(recs) != 2 || recs[0].N != 1 || recs[1].N != 200 {
		t.Fatalf("records %+v; want runs of N = 1 and 200", recs)
	}
	last := recs[1]
	if last.Procs < 1 {
		t.Errorf("procs %d", last.Procs)
	}
	raw, err := base64.StdEncoding.DecodeString(last.Hist)
	if err != nil {
		t.Fatal(err)
	}
	h, err := hdrhistogram.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 200 || float64(h.ValueAtPercentile(50)) != p50 {
		t.Errorf("histogram of %d calls with p50 %d; want 200 and the reported %v", h.TotalCount(), h.ValueAtPercentile(50), p50)
	}
}

// TestParallelWithoutBrewput writes nothing when brewput does not ask.
func TestParallelWithoutBrewput(t *testing.T) {
	benchtime(t, "50x")
	t.Setenv(bench.HistEnv, "")
	dir := t.TempDir()
	t.Chdir(dir)
	r := testing.Benchmark(func(b *testing.B) { bench.Parallel(b, func() {}) })
	if _, ok := r.Extra[bench.UnitP99]; !ok {
		t.Errorf("no p99 reported: %v", r.Extra)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrote %d files", len(entries))
	}
}
