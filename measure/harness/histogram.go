package harness

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// The geometry of every latency histogram brewput records, so that any two
// merge: 1 ns to 1 hour at 3 significant digits.
const (
	lowestLatency  = 1
	highestLatency = int64(time.Hour)
	latencyDigits  = 3
)

// NewHistogram returns an empty latency histogram in nanoseconds.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(lowestLatency, highestLatency, latencyDigits)
}

// record adds one latency, clamped to the histogram's range.
func record(h *hdrhistogram.Histogram, d time.Duration) {
	_ = h.RecordValue(min(max(int64(d), lowestLatency), highestLatency)) // cannot fail: within the geometry
}
