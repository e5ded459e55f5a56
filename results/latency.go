package results

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latency summarizes a latency distribution in milliseconds.
type Latency struct {
	Min  float64 `json:"min"`
	P05  float64 `json:"p05"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// Summarize reads the percentiles off a histogram of nanoseconds (or zeros).
func Summarize(h *hdrhistogram.Histogram) Latency {
	if h.TotalCount() == 0 {
		return Latency{}
	}
	at := func(p float64) float64 { return Ms(time.Duration(h.ValueAtPercentile(p))) }
	return latencyOf(Ms(time.Duration(h.Min())), Ms(time.Duration(h.Max())), h.Mean()/float64(time.Millisecond), at)
}

// latencyOf is the Latency of min, max and mean, its percentiles at's.
func latencyOf(min, max, mean float64, at func(p float64) float64) Latency {
	return Latency{Min: min, P05: at(5), P25: at(25), P50: at(50), P75: at(75), P90: at(90), P95: at(95), P99: at(99), Max: max, Mean: mean}
}

// EncodeHistogram packs a histogram for a results file.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// Histogram unpacks the point's latency histogram, in nanoseconds.
func (p Point) Histogram() (*hdrhistogram.Histogram, error) {
	if p.Hist == "" {
		return nil, fmt.Errorf("point %s cpus=%d from %s has no histogram", p.Mode, p.CPUs, p.Origin())
	}
	b, err := base64.StdEncoding.DecodeString(p.Hist)
	if err != nil {
		return nil, fmt.Errorf("point %s cpus=%d: histogram is not base64: %w", p.Mode, p.CPUs, err)
	}
	h, err := hdrhistogram.Decode(bytes.Clone(b))
	if err != nil {
		return nil, fmt.Errorf("point %s cpus=%d: bad histogram: %w", p.Mode, p.CPUs, err)
	}
	return h, nil
}

// RunLatency summarizes a lab's few runs' times in ms, each percentile
// interpolated between the nearest runs to the nanosecond.
func RunLatency(times []time.Duration) Latency {
	s := slices.Sorted(slices.Values(times))
	if len(s) == 0 {
		return Latency{}
	}
	at := func(p float64) float64 {
		x := p / 100 * float64(len(s)-1)
		i := int(x)
		if i+1 >= len(s) {
			return Ms(s[len(s)-1])
		}
		return Ms(s[i] + time.Duration(math.Round((x-float64(i))*float64(s[i+1]-s[i]))))
	}
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return latencyOf(Ms(s[0]), Ms(s[len(s)-1]), Ms(sum)/float64(len(s)), at)
}

// Median is the middle of xs, or the mean of its two middle values; 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
