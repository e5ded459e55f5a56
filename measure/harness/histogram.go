package harness

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// NewHistogram returns an empty latency histogram in nanoseconds with the
// geometry of every one brewput records, so that any two merge: 1 ns to an
// hour at 3 significant digits.
func NewHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(1, int64(time.Hour), 3) }

// record adds one latency, clamped to the histogram's range.
func record(h *hdrhistogram.Histogram, d time.Duration) {
	_ = h.RecordValue(min(max(int64(d), 1), h.HighestTrackableValue())) // cannot fail: within range
}
