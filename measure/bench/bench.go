// Package bench helps Go benchmarks say more than ns/op: Parallel runs a
// body as testing.B.RunParallel does, records every call's latency in an
// HDR histogram, and reports its percentiles beside ns/op, for go test
// -bench, benchstat and brewput bench:
//
//	func BenchmarkGet(b *testing.B) {
//		c := NewCache()
//		bench.Parallel(b, func() { c.Get(rand.IntN(1000)) })
//	}
//
//	BenchmarkGet-2   39465390   30.41 ns/op   38 p50-ns   121 p99-ns   1093 p99.9-ns
//
// Under brewput bench, Parallel also hands over the whole histogram. Timing
// costs one clock read per call, which ns/op and the percentiles include.
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

// HistEnv names a file to which each run of a benchmark appends a Record
// in JSON: how brewput bench asks for the histograms.
const HistEnv = "BREWPUT_BENCH_HIST"

// Record is a run of a benchmark under Parallel: b.Name without its
// -GOMAXPROCS suffix, GOMAXPROCS, b.N, and the latency histogram in ns,
// HDR V2 compressed and base64 encoded; go test reports the record whose
// N is the last.
type Record struct {
	Name  string `json:"name"`
	Procs int    `json:"procs"`
	N     int    `json:"n"`
	Hist  string `json:"hist"`
}

// Parallel runs body as b.RunParallel does, b.N calls in all, timing each,
// and reports the p50, p99 and p99.9 latency. body must be safe for
// concurrent use.
func Parallel(b *testing.B, body func()) {
	b.Helper()
	// Histograms made off the timer are not charged to the body (B/op).
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
		epoch := time.Now() // a call's end is the next one's start
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

// newHistogram has harness.NewHistogram's geometry, so that the two merge,
// without importing it.
func newHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(1, int64(time.Hour), 3) }

// record adds one latency, clamped to the histogram's range.
func record(h *hdrhistogram.Histogram, d time.Duration) {
	_ = h.RecordValue(min(max(int64(d), 1), h.HighestTrackableValue())) // cannot fail: within range
}
