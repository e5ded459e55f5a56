package harness

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry shared by every latency distribution brewput records,
// so that any two can be merged: 1 ns to 1 hour at 3 significant digits.
const (
	lowestLatency  = 1
	highestLatency = int64(time.Hour)
	latencyDigits  = 3
)

// NewHistogram returns an empty latency histogram in nanoseconds, with the
// geometry of every histogram the harness produces, so the two merge
// losslessly.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(lowestLatency, highestLatency, latencyDigits)
}

// record adds one latency, clamping at the histogram's ceiling rather than
// losing a value the histogram cannot hold.
func record(h *hdrhistogram.Histogram, d time.Duration) {
	_ = h.RecordValue(min(max(int64(d), lowestLatency), highestLatency)) // cannot fail: within the geometry
}
