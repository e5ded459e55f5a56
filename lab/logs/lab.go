package logs

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

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

// Lab is the logs lab as brewput runs it (a lab.Lab), with its
// configuration.
type Lab struct{ Config Config }

// NewLab returns the lab at its defaults.
func NewLab() *Lab { return &Lab{Config: DefaultConfig()} }

// Info implements lab.Lab.
func (l *Lab) Info() lab.Info {
	return lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab logs
  brewput lab logs --sync --kinds file,leveldb
  brewput lab logs --kinds file --writers 1,4,16 --dir /mnt/disk --format json --out logs.json`}
}

// Bind implements lab.Lab: a flag for each field of Config. With --sync
// and no --appends, a run makes the smaller DefaultSyncAppends.
func (l *Lab) Bind(fs *pflag.FlagSet) func() error {
	c := &l.Config
	kinds := make([]string, len(c.Kinds))
	for i, k := range c.Kinds {
		kinds[i] = string(k)
	}
	fs.StringSliceVar(&kinds, "kinds", kinds, "kinds of log to measure: memory, file, leveldb")
	fs.IntSliceVar(&c.Writers, "writers", c.Writers, "writer goroutine counts t to sweep")
	fs.IntVar(&c.Appends, "appends", c.Appends, fmt.Sprintf("appends per run, all writers together (the same at every t); %d with --sync unless given", DefaultSyncAppends))
	fs.IntVar(&c.ValueBytes, "value-bytes", c.ValueBytes, "bytes in each appended value")
	fs.BoolVar(&c.Sync, "sync", c.Sync, "fsync every append of the file and LevelDB logs (the memory log has nothing to sync)")
	fs.StringVar(&c.Dir, "dir", c.Dir, "folder, hence file system and disk, for the logs (default: the temporary folder); the lab removes its logs afterwards")
	fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each point; a point reports the run of median wall time")
	return func() error {
		c.Kinds = make([]Kind, len(kinds))
		for i, k := range kinds {
			c.Kinds[i] = Kind(k)
		}
		if c.Sync && !fs.Changed("appends") {
			c.Appends = DefaultSyncAppends
		}
		return lab.FlagError(c.Validate())
	}
}

// Run implements lab.Lab: Run with the lab's configuration.
func (l *Lab) Run(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
	return Run(ctx, l.Config, cpus, progress)
}

// Figure implements lab.Lab: how many times the naive sum of append
// latencies overstates the wall time, against writers, a line per kind of
// log, with y = t, what a log that serializes every append gives.
func (l *Lab) Figure() lab.Figure {
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
