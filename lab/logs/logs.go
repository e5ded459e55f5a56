// Package logs is the logs lab: t writer goroutines share a fixed number
// of appends to one append-only Log in memory, a file or LevelDB, and the
// naive sum of their latencies is set against the wall time. The log must
// reopen holding every append exactly once.
package logs

import (
	"cmp"
	_ "embed"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "logs"

//go:embed help.txt
var help string

// The metrics of a point.
const (
	MetricWriters       results.Metric = "writers"              // t, as Par
	MetricAppends       results.Metric = "appends"              // of the run, all writers together
	MetricValueBytes    results.Metric = "value_bytes"          // the size of a value
	MetricSync          results.Metric = "sync"                 // 1 if the log syncs
	MetricVerified      results.Metric = "verified"             // 1: the run passed its check (a failure is an error)
	MetricWallS         results.Metric = "wall_s"               // first start to last finish, as Dur
	MetricLatencySumS   results.Metric = "latency_sum_s"        // every append's latency added up: the naive total
	MetricOverstatement results.Metric = "overstatement"        // latency_sum_s ÷ wall_s: about t, never more
	MetricNaiveRate     results.Metric = "naive_appends_per_s"  // appends ÷ latency_sum_s: what the naive total would claim
	MetricSingleRate    results.Metric = "single_appends_per_s" // the single writer's throughput, same kind and CPUs
	MetricOfSingle      results.Metric = "of_single"            // Throughput ÷ single_appends_per_s
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "t writers share appends to one log (memory, file, LevelDB): summed latencies overstate",
		Example: `  brewput lab logs
  brewput lab logs --sync --kinds file,leveldb

  brewput lab logs --kinds file --writers 1,4,16 --dir /mnt/disk \
    --format json --out logs.json`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:     chartspec.Lines,
		Title:    "logs: summed append latencies against the wall time",
		Lesson:   "t writers share a fixed number of appends to one log. A log that takes one append at a time does the same work however many write: its throughput, first start to last finish, stays near one writer's (of single in the table, as a fraction). But each append now waits for the others, so the sum of the writers' latencies grows about t-fold while the wall time does not: n appends of w seconds take n·w, yet their latencies add up to n·w·t. The chart shows that ratio against t, a line per kind of log; the closer to the grey line, the more of each latency is waiting for the lock. A benchmark that divides appends by summed latency reports a throughput t times too low.",
		X:        chartspec.Axis{Label: "writer goroutines (t)", Of: chartspec.ByMetric, Metric: MetricWriters, Scale: chartspec.Even},
		Y:        chartspec.Axis{Label: "sum of append latencies ÷ wall time (×)", Of: chartspec.ByMetric, Metric: MetricOverstatement},
		Diagonal: "t: every writer always waiting",
		Empty:    "No point says how much its latency sum overstates the wall time (overstatement).",
	})
}

// Config says what Run sweeps: every kind with every writer count.
type Config struct {
	Kinds      []Kind `flag:"kinds" usage:"kinds of log to measure:\nmemory, file, leveldb"`
	Writers    []int  `flag:"writers" usage:"writer goroutines t to sweep"`
	Appends    int    `flag:"appends" usage:"appends per run, all writers together\n(the same at every t); 1000 with --sync unless given"`
	ValueBytes int    `flag:"value-bytes" usage:"bytes in each appended value"`
	Sync       bool   `flag:"sync" usage:"fsync every append of the file and LevelDB logs\n(the memory log has nothing to sync)"`
	Dir        string `flag:"dir" usage:"folder, hence file system and disk, for the logs\n(default: the temporary folder); the lab removes its logs afterwards"`
	Reps       int    `flag:"reps" usage:"runs of each point;\na point reports the run of median wall time"`
}

// Appends per run by default: an append costs 0.5 to 4 µs on 2 CPUs; with
// sync it waits for the disk, 0.1 to 0.3 ms there (10 ms writing through).
const (
	DefaultAppends     = 50_000
	DefaultSyncAppends = 1_000
)

// DefaultConfig takes about 25 s for CPU counts 1 and 2 on 2 CPUs.
func DefaultConfig() Config {
	return Config{
		Kinds:      Kinds(),
		Writers:    []int{1, 2, 4, 8, 16, 32},
		Appends:    DefaultAppends,
		ValueBytes: 100,
		Reps:       lab.IntervalRuns(),
	}
}

// maxLogBytes is the most a run may write: more is a typo.
const maxLogBytes = 2 << 30

// Validate refuses, beside nonsense, what would take the machine's memory
// or disk; a value holds the 8 bytes that tell it apart (fill), and past
// 1 MiB a run would measure copying, not the log. A Dir must be a folder.
func (c Config) Validate() error {
	if err := cmp.Or(
		lab.NotEmpty("kinds", c.Kinds, "of "+kindNames()),
		lab.NotEmpty("writers", c.Writers, "writer count"),
		lab.Within("appends", c.Appends, 1, 10_000_000, "appends per run"),
		lab.Within("value-bytes", c.ValueBytes, 8, 1<<20, "bytes per value"),
		lab.Refuse(int64(c.Appends)*int64(c.ValueBytes) > maxLogBytes,
			"appends %d: %d appends of %d bytes make a log of more than %d bytes; want fewer or smaller", c.Appends, c.Appends, c.ValueBytes, maxLogBytes),
		lab.Within("reps", c.Reps, 1, 100, "runs per point"),
		lab.Choices("kinds", c.Kinds, Kinds(), "want "+kindNames()),
	); err != nil {
		return err
	}
	for i, t := range c.Writers {
		if err := cmp.Or(lab.Within("writers", t, 1, 4096, "writers"),
			lab.Refuse(slices.Contains(c.Writers[:i], t), "writers %d: given twice", t)); err != nil {
			return err
		}
	}
	if most := slices.Max(c.Writers); most > c.Appends {
		return fmt.Errorf("appends %d: fewer than the %d writers; want at least one append per writer", c.Appends, most)
	}
	if c.Dir != "" {
		info, err := os.Stat(c.Dir)
		if err != nil {
			return fmt.Errorf("dir %s: %w", c.Dir, atomicfile.WithoutPath(err))
		}
		if !info.IsDir() {
			return fmt.Errorf("dir %s: not a folder", c.Dir)
		}
	}
	return nil
}

// Variant names a kind's points: the kind, with "-sync" when the log
// fsyncs every append.
func Variant(kind Kind, sync bool) string {
	if sync && kind != Memory {
		return string(kind) + "-sync"
	}
	return string(kind)
}

// Complete: with --sync and no --appends, a run makes DefaultSyncAppends.
func (c *Config) Complete(given func(flag string) bool) {
	if c.Sync && !given("appends") {
		c.Appends = DefaultSyncAppends
	}
}

// Memory is what a run holds at most: 16 bytes an append, and the values.
func (c Config) Memory() (float64, []string) {
	return float64(c.Appends) * float64(16+c.ValueBytes) * 2, []string{fmt.Sprint("--appends ", c.Appends), fmt.Sprint("--value-bytes ", c.ValueBytes)}
}
