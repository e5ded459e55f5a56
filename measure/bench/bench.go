// Package bench helps Go benchmarks say more than ns/op: Parallel runs a
// benchmark's body as testing.B.RunParallel does, records how long every
// call took in an HDR histogram, and reports the latency percentiles
// beside ns/op, so that go test -bench, benchstat and brewput bench show
// the latency distribution of a concurrent design and not only its
// throughput:
//
//	func BenchmarkGet(b *testing.B) {
//		c := NewCache()
//		bench.Parallel(b, func() { c.Get(rand.IntN(1000)) })
//	}
//
//	BenchmarkGet-2   39465390   30.41 ns/op   38 p50-ns   121 p99-ns   1093 p99.9-ns
//
// The units are those the Go runtime's own latency benchmarks report.
// Under brewput bench, Parallel also hands brewput the whole histogram of
// the run go test reports, so that its report draws the full distribution.
//
// Timing each call costs one clock read per call (tens of nanoseconds on
// some virtual machines): ns/op of a very short body rises by that much,
// and the percentiles include it.
package bench

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// The units Parallel reports, in nanoseconds per call.
const (
	UnitP50  = "p50-ns"
	UnitP99  = "p99-ns"
	UnitP999 = "p99.9-ns"
)

// HistEnv is the environment variable through which brewput bench asks
// Parallel for its histograms: when it names a file, every run of a
// benchmark appends one line of JSON to it (see Record).
const HistEnv = "BREWPUT_BENCH_HIST"

// Record is one run of a benchmark body under Parallel, as appended to the
// file HistEnv names: the benchmark's name (testing.B.Name, without the
// -N GOMAXPROCS suffix go test prints), GOMAXPROCS, b.N, and the latency
// histogram in nanoseconds, HDR V2 compressed and base64 encoded (as a
// brewput results file holds one). go test runs a benchmark several times
// with growing b.N and reports the last; the record whose N is the
// reported iteration count is that run.
type Record struct {
	Name  string `json:"name"`
	Procs int    `json:"procs"`
	N     int    `json:"n"`
	Hist  string `json:"hist"`
}

// Parallel runs body in parallel as b.RunParallel does — by GOMAXPROCS
// goroutines (times b.SetParallelism's multiplier), b.N calls in all —
// timing every call, and reports the median, 99th and 99.9th percentile
// latency per call as the metrics p50-ns, p99-ns and p99.9-ns. body must
// be safe to call from several goroutines at once.
func Parallel(b *testing.B, body func()) {
	b.Helper()
	// The histograms are made before the timer runs, so that their memory
	// is not charged to the body (B/op, allocs/op): one per P, and more on
	// demand if SetParallelism asks for more goroutines.
	b.StopTimer()
	spare := make(chan *hdrhistogram.Histogram, runtime.GOMAXPROCS(0))
	for range cap(spare) {
		spare <- newHistogram()
	}
	total := newHistogram()
	var mu sync.Mutex
	b.StartTimer()
	b.RunParallel(func(pb *testing.PB) {
		var h *hdrhistogram.Histogram
		select {
		case h = <-spare:
		default:
			h = newHistogram()
		}
		// One clock read per call: a call's end is the next one's start.
		// time.Since on a monotonic time reads the clock once.
		epoch := time.Now()
		last := time.Since(epoch)
		for pb.Next() {
			body()
			now := time.Since(epoch)
			record(h, now-last)
			last = now
		}
		mu.Lock()
		total.Merge(h)
		mu.Unlock()
	})
	b.StopTimer()
	report(b, total)
	b.StartTimer()
}

// report reports h's percentiles and, under brewput bench, hands it over.
func report(b *testing.B, h *hdrhistogram.Histogram) {
	if h.TotalCount() == 0 {
		return
	}
	b.ReportMetric(float64(h.ValueAtPercentile(50)), UnitP50)
	b.ReportMetric(float64(h.ValueAtPercentile(99)), UnitP99)
	b.ReportMetric(float64(h.ValueAtPercentile(99.9)), UnitP999)
	if path := os.Getenv(HistEnv); path != "" {
		if err := appendRecord(path, b, h); err != nil {
			b.Errorf("bench: hand the latency histogram to brewput: %v", err)
		}
	}
}

// appendRecord appends b's run and its histogram to the file at path.
func appendRecord(path string, b *testing.B, h *hdrhistogram.Histogram) error {
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return err
	}
	line, err := json.Marshal(Record{Name: b.Name(), Procs: runtime.GOMAXPROCS(0), N: b.N, Hist: base64.StdEncoding.EncodeToString(enc)})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// Histogram geometry: as brewput's harness records latencies (1 ns to an
// hour, 3 significant digits), so that the two merge.
const (
	lowest  = 1
	highest = int64(time.Hour)
	digits  = 3
)

func newHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(lowest, highest, digits) }

// record adds one latency, clamped to the histogram's range.
func record(h *hdrhistogram.Histogram, d time.Duration) {
	_ = h.RecordValue(min(max(int64(d), lowest), highest)) // cannot fail: within range
}
