// Package wordcount is the wordcount lab, after the talk that profiled a
// word counter: a text's words counted by a system call per byte, through
// a bufio.Reader with a fresh buffer per read, and with one buffer reused;
// the system's wc -w must agree.
package wordcount

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "wordcount"

//go:embed help.txt
var help string

// The metrics of a point.
const (
	MetricWords       results.Metric = "words"         // the count; wc's own on the wc point
	MetricMedianMs    results.Metric = "median_ms"     // the median run's time
	MetricSpeedup     results.Metric = "speedup"       // the median of bytewise's time ÷ the point's, run by run; its interval lab.Lo/Hi from 6 runs
	MetricAllocsPerOp results.Metric = "allocs_per_op" // on the Go ways: heap allocations per run, as go test -benchmem
	MetricBytesPerOp  results.Metric = "bytes_per_op"  // on the Go ways: bytes allocated per run
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "count words by a syscall per byte, buffered, and without allocating: against wc -w",
		Example: `  brewput lab wordcount
  brewput lab wordcount --file /usr/share/common-licenses/GPL-3

  brewput lab wordcount --size 5000000 --reps 3`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:   chartspec.Bars,
		Title:  "wordcount: throughput of each way of reading",
		Lesson: "Bytes counted per second by each way of reading, the system's wc -w beside them. One Read call per byte pays a system call per byte; a buffered reader pays one per buffer; reusing the buffer also spares an allocation per read.",
		Y:      chartspec.Axis{Of: chartspec.ByThroughput},
		Empty:  "No point to draw.",
	})
}

// Config says what the lab counts and how often.
type Config struct {
	File string `flag:"file" usage:"count this file's words\n(default: a generated text of --size bytes)"`
	Size int    `flag:"size" usage:"bytes of the generated text"`
	Reps int    `flag:"reps" usage:"runs of each way of reading at each CPU count;\na point reports the median"`
}

// DefaultConfig is the talk's 1.2 MB: about 7 s for CPU counts 1 and 2 on
// the 2-core VM.
func DefaultConfig() Config {
	return Config{Size: 1_200_000, Reps: lab.IntervalRuns()}
}

// Validate wants a File, if any, a readable regular file.
func (c Config) Validate() error {
	if err := cmp.Or(
		lab.AtLeast("size", c.Size, 1, "byte"),
		lab.AtMost("size", c.Size, 100_000_000, "bytes (bytewise makes a system call per byte)"),
		lab.AtLeast("reps", c.Reps, 1, ""),
		lab.AtMost("reps", c.Reps, 1000, ""),
	); err != nil || c.File == "" {
		return err
	}
	fi, err := os.Stat(c.File)
	if err != nil {
		return fmt.Errorf("file %s: %w", c.File, atomicfile.WithoutPath(err))
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("file %s: not a regular file", c.File)
	}
	f, err := os.Open(c.File)
	if err != nil {
		return fmt.Errorf("file %s: %w", c.File, atomicfile.WithoutPath(err))
	}
	f.Close()
	return nil
}

// Memory is what a run holds at most: the text, and a copy of it.
func (c Config) Memory() (float64, []string) {
	size := float64(c.Size)
	if c.File != "" {
		if fi, err := os.Stat(c.File); err == nil {
			return 3 * float64(fi.Size()), []string{"--file " + c.File}
		}
	}
	return 3 * size, []string{fmt.Sprint("--size ", c.Size)}
}

// Run counts the file's words every way at each CPU count, the ways
// taking turns, and with wc on the PATH, wc too (its CPU its own): the
// median run, Ops the file's bytes. A wrong count is an error.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	if err := lab.Check(c, cpus); err != nil {
		return nil, err
	}
	say := lab.Tell(progress)
	path := c.File
	if path == "" {
		dir, err := os.MkdirTemp("", "brewput-wordcount-")
		if err != nil {
			return nil, fmt.Errorf("temporary text file: %w", err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "text.txt")
		if err := os.WriteFile(path, Text(c.Size), 0o644); err != nil {
			return nil, fmt.Errorf("temporary text file: %w", err)
		}
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	ref := ref{words: int64(Words(text)), size: int64(len(text)), plain: plainASCII(text)}
	text = nil

	ways := []way{
		{name: "bytewise", count: countBytewise},
		{name: "buffered", count: countBuffered},
		{name: "reused", count: countReused},
	}
	wc, err := exec.LookPath("wc")
	if err != nil {
		say(results.LabEvent{Warning: errors.New("wc not found on the PATH: no outside reference")})
	} else {
		ways = append(ways, way{name: "wc", wc: wc})
	}

	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		ts, wcWords, err := measure(ctx, c.Reps, path, ref, ways)
		if err != nil {
			return err
		}
		if len(ways) == 4 && wcWords != ref.words {
			say(results.LabEvent{Warning: fmt.Errorf("wc -w counts %d words, the lab %d: the file is not plain ASCII text, where the two would agree", wcWords, ref.words)})
		}
		for i, w := range ways {
			p := ts[i].Point(Name, w.name, n, 1, ref.size, "bytes/s", map[results.Metric]float64{MetricWords: float64(ref.words)})
			p.Set(MetricMedianMs, p.Latency.P50)
			speedup := lab.IntervalOf(lab.Ratios(ts[0].Runs, ts[i].Runs))
			speedup.Set(&p, MetricSpeedup)
			if w.wc == "" {
				reps := float64(len(ts[i].Times))
				p.Set(MetricAllocsPerOp, float64(ts[i].mallocs)/reps)
				p.Set(MetricBytesPerOp, float64(ts[i].bytes)/reps)
			} else {
				p.Set(MetricWords, float64(wcWords))
			}
			add(p, results.LabPoint{Rate: results.Interval{N: c.Reps}, Vs: results.Interval(speedup)})
		}
		return nil
	})
}

// way is one way of counting: a Go function, or the wc program at path wc.
type way struct {
	name  string
	count func(path string) (words, n int64, err error)
	wc    string
}

type ref struct {
	words, size int64
	plain       bool // plain ASCII text, where wc -w must agree
}

// timing is what the runs of one way measured, with the heap allocations.
type timing struct {
	lab.Runs
	mallocs, bytes uint64
}

// measure runs each way reps times in turns and checks every count: the
// timings and wc's count.
func measure(ctx context.Context, reps int, path string, ref ref, ways []way) ([]timing, int64, error) {
	ts := make([]timing, len(ways))
	var wcCount int64
	var before, after runtime.MemStats
	err := lab.Turns(ctx, reps, len(ways), func(_, i int) error {
		w := ways[i]
		runtime.ReadMemStats(&before)
		var words, n int64
		var err error
		var wcCPU time.Duration
		sw := sweep.StartStopwatch()
		if w.wc == "" {
			words, n, err = w.count(path)
		} else {
			words, wcCPU, err = wcWords(ctx, w.wc, path)
		}
		lap := sw.Stop()
		runtime.ReadMemStats(&after)
		if err != nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
		if w.wc != "" {
			lap.CPU = wcCPU
			if words != ref.words && ref.plain {
				return fmt.Errorf("wc -w counts %d words in %s, the lab %d", words, path, ref.words)
			}
			wcCount = words
		} else if words != ref.words || n != ref.size {
			return fmt.Errorf("%s counted %d words in %d bytes, want %d in %d", w.name, words, n, ref.words, ref.size)
		}
		ts[i].Add(lap)
		ts[i].mallocs += after.Mallocs - before.Mallocs
		ts[i].bytes += after.TotalAlloc - before.TotalAlloc
		return nil
	})
	return ts, wcCount, err
}

func plainASCII(text []byte) bool {
	return !slices.ContainsFunc(text, func(b byte) bool { return !isSpace(b) && (b < 0x21 || b > 0x7e) })
}
