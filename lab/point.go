package lab

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/results"
)

// Point is the results point of the variant of lab name measured on n
// CPUs (GOMAXPROCS) from start, with its metrics, as every lab makes
// them: measured here, its Mode "name/variant", its Start in UTC to the
// millisecond, and, from used, the process's CPU time over the wall time
// in CPUs, its CPUUsed and Util (used ÷ n). The lab adds what it did:
// Par, DurS, Ops, Throughput, Unit, and its latencies (see Latencies).
func Point(name, variant string, n int, start time.Time, used float64, metrics map[results.Metric]float64) results.Point {
	return results.Point{
		Source:  results.SourceMeasured,
		Lab:     results.Lab{Name: name, Variant: variant, Metrics: metrics},
		Mode:    name + "/" + variant,
		CPUs:    n,
		CPUUsed: used,
		Util:    used / float64(n),
		Start:   start.UTC().Round(time.Millisecond),
	}
}

// Latencies gives p the latencies recorded in h: their summary (Latency)
// and the histogram itself, encoded for a results file (Hist).
func Latencies(p *results.Point, h *hdrhistogram.Histogram) error {
	p.Latency = results.Summarize(h)
	var err error
	p.Hist, err = results.EncodeHistogram(h)
	return err
}
