package logs

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points; see Run.
const (
	MetricWriters       results.Metric = "writers"
	MetricAppends       results.Metric = "appends"
	MetricWallS         results.Metric = "wall_s"
	MetricLatencySumS   results.Metric = "latency_sum_s"
	MetricOverstatement results.Metric = "overstatement"
	MetricNaiveRate     results.Metric = "naive_appends_per_s"
	MetricOfSingle      results.Metric = "of_single"
	MetricSingleRate    results.Metric = "single_appends_per_s"
	MetricVerified      results.Metric = "verified"
	MetricUtil          results.Metric = "util"
	MetricValueBytes    results.Metric = "value_bytes"
	MetricSync          results.Metric = "sync"
)

// NewLab returns the logs lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab logs
  brewput lab logs --sync --kinds file,leveldb
  brewput lab logs --kinds file --writers 1,4,16 --dir /mnt/disk --format json --out logs.json`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: how many times the naive sum of append
// latencies overstates the wall time, against writers, a line per kind of
// log, with y = t, what a log that serializes every append gives.
func figure() lab.Figure {
	return lab.Figure{
		Kind:     lab.Lines,
		Title:    "logs: summed append latencies against the wall time",
		Lesson:   "t writers share a fixed number of appends to one log. A log that takes one append at a time does the same work however many write: its throughput, first start to last finish, stays near one writer's (of single in the table, as a fraction). But each append now waits for the others, so the sum of the writers' latencies grows about t-fold while the wall time does not: n appends of w seconds take n·w, yet their latencies add up to n·w·t. The chart shows that ratio against t, a line per kind of log; the closer to the grey line, the more of each latency is waiting for the lock. A benchmark that divides appends by summed latency reports a throughput t times too low.",
		X:        lab.Axis{Label: "writer goroutines (t)", Of: lab.ByMetric, Metric: MetricWriters, Scale: lab.Even},
		Y:        lab.Axis{Label: "sum of append latencies ÷ wall time (×)", Of: lab.ByMetric, Metric: MetricOverstatement},
		Diagonal: "t: every writer always waiting",
		Empty:    "No point says how much its latency sum overstates the wall time (overstatement).",
	}
}
