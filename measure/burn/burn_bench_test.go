package burn

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// lockOSThread pins the goroutine to its thread for the rest of tb, so
// thread CPU clock reads taken around a burn belong to the burning thread.
func lockOSThread(tb testing.TB) {
	runtime.LockOSThread()
	tb.Cleanup(runtime.UnlockOSThread)
}

// timedBurn burns d on c and returns the wall time it took and, for the
// thread CPU clock, the thread's CPU time; the caller keeps the thread
// (lockOSThread) so that both CPU clock reads are of the burning thread.
func timedBurn(c Clock, d time.Duration) (wall, cpu time.Duration) {
	var c0 time.Duration
	if c == ThreadCPU {
		c0 = threadCPUTime()
	}
	w0 := time.Now()
	c.Burn(d)
	wall = time.Since(w0)
	if c == ThreadCPU {
		cpu = threadCPUTime() - c0
	}
	return wall, cpu
}

// BenchmarkBurn times each burst individually and reports the median and
// p90 burst, and the median's relative error against d. The ns/op figure
// is the mean, which outliers on a shared machine skew.
func BenchmarkBurn(b *testing.B) {
	for _, c := range []Clock{Wall, ThreadCPU} {
		for _, d := range []time.Duration{time.Millisecond, 100 * time.Microsecond} {
			b.Run("clock="+c.String()+"/d="+d.String(), func(b *testing.B) {
				if c == ThreadCPU && !threadCPUSupported {
					b.Skip("thread CPU clock not supported here")
				}
				if c == ThreadCPU {
					lockOSThread(b)
				}
				wall := make([]time.Duration, b.N)
				cpu := make([]time.Duration, b.N)
				b.ResetTimer()
				for i := range b.N {
					wall[i], cpu[i] = timedBurn(c, d)
				}
				b.StopTimer()
				slices.Sort(wall)
				med := wall[len(wall)/2]
				p90 := wall[min(len(wall)*9/10, len(wall)-1)]
				us := func(x time.Duration) float64 { return float64(x) / float64(time.Microsecond) }
				b.ReportMetric(us(med), "median-us")
				b.ReportMetric(us(p90), "p90-us")
				b.ReportMetric(100*float64(med-d)/float64(d), "err-%")
				if c == ThreadCPU {
					b.ReportMetric(us(median(cpu)), "median-cpu-us")
				}
			})
		}
	}
}

// BenchmarkClockRead measures one read of each clock: the granularity at
// which a burn can notice that d has passed.
func BenchmarkClockRead(b *testing.B) {
	b.Run("clock=wall", func(b *testing.B) {
		start := time.Now()
		for b.Loop() {
			_ = time.Since(start)
		}
	})
	b.Run("clock=cpu", func(b *testing.B) {
		if !threadCPUSupported {
			b.Skip("thread CPU clock not supported here")
		}
		for b.Loop() {
			_ = threadCPUTime()
		}
	})
}
