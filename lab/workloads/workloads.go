// Package workloads is the lab of when concurrency pays: add (CPU-bound),
// sort (a bubble sort sorted again as a whole) and find (IO-bound), each
// done sequentially and concurrently, on one CPU and more.
package workloads

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "workloads"

//go:embed help.txt
var help string

// The metrics of a point.
const (
	MetricSpeedup  results.Metric = "speedup"   // the median, run by run, of sequential's time ÷ this variant's (1 on sequential); lab.Lo/Hi from 6 runs
	MetricMedianMs results.Metric = "median_ms" // the median run's time
	MetricPasses   results.Metric = "passes"    // times a run did the workload (see Config.MinRun)
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "add, sort and find, sequential and concurrent, on 1 CPU and more: when it pays",
		Example: `  brewput lab workloads
  brewput lab workloads --cpus 1 --sort-size 5000 --docs 200

  brewput lab workloads --wait 0 --format json --out workloads.json`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:   chartspec.Lines,
		Title:  "workloads: speedup of concurrent over sequential against CPUs",
		Lesson: "The speedup of each workload's concurrent version over its sequential one, at each CPU count. IO-bound find gains even on 1 CPU: its goroutines overlap their waits. CPU-bound add gains only with a second CPU, and sort never does: its concurrent version sorts the whole again after the parts.",
		X:      chartspec.Axis{Label: "CPUs", Of: chartspec.ByCPUs},
		Y:      chartspec.Axis{Label: "speedup over sequential (×)", Of: chartspec.ByMetric, Metric: MetricSpeedup},
		Line: func(p results.Point) (chartspec.Line, bool) {
			work, kind, _ := strings.Cut(p.Variant(), "/")
			return chartspec.Line{Name: work}, kind == "concurrent"
		},
		Reference: chartspec.Reference{Label: "no gain (1×)", Y: 1},
		Empty:     "No concurrent variant has a speedup to draw.",
	})
}

// Config sets the sizes of the lab's workloads.
type Config struct {
	AddSize  int           `flag:"add-size" usage:"add: integers summed"` // 0 to AddSize-1: the sum is known
	SortSize int           `flag:"sort-size" usage:"sort: integers bubble-sorted\n(time grows with its square)"`
	Docs     int           `flag:"docs" usage:"find: XML documents searched"`
	Wait     time.Duration `flag:"wait" usage:"find: blocking wait before each document,\nstanding for the disk (0: CPU-bound)"`
	Topic    string        `flag:"topic" usage:"find: the word searched for"`
	// Goroutines 0 is runtime.NumCPU whatever GOMAXPROCS is, so that on 1
	// CPU they are concurrency without parallelism.
	Workers    int `flag:"workers" usage:"find: goroutines in the concurrent pool,\n8 as in the seed (0: one per CPU of the machine)"`
	Goroutines int `flag:"goroutines" usage:"add and sort: parts, one goroutine each\n(0: one per CPU of the machine)"`
	Reps       int `flag:"reps" usage:"runs of each variant at each CPU count;\na point reports the median"`
	// MinRun makes a short workload's run long enough to hold up beside a
	// neighbour, as go test -bench repeats an operation (the seed's figures
	// are benchmarks').
	MinRun    time.Duration `flag:"min-run" usage:"shortest run of a workload\n(one faster is repeated within each run, the same number of times both ways; 0: once)"`
	Workloads []string      `flag:"workloads" usage:"workloads to measure:\nadd, sort, find"`
}

// Workloads names the lab's workloads, in the order Run measures them.
func Workloads() []string { return []string{"add", "sort", "find"} }

// DefaultConfig is the seed's setting, 6 runs each: about 25 s for CPU
// counts 1 and 2 on the 2-core VM.
func DefaultConfig() Config {
	return Config{
		AddSize:   10_000_000,
		SortSize:  20_000,
		Docs:      1000,
		Wait:      time.Millisecond,
		Topic:     "gopher",
		Workers:   8,
		Reps:      lab.IntervalRuns(),
		MinRun:    100 * time.Millisecond,
		Workloads: Workloads(),
	}
}

func (c Config) Validate() error {
	return cmp.Or(
		lab.AtLeast("add-size", c.AddSize, 1, "integer"),
		lab.AtMost("add-size", c.AddSize, 1_000_000_000, "integers (8 GB)"),
		lab.AtLeast("sort-size", c.SortSize, 1, "integer"),
		lab.AtMost("sort-size", c.SortSize, 200_000, "integers (bubble sort takes time in the square of the size)"),
		lab.AtLeast("docs", c.Docs, 1, "document"),
		lab.AtMost("docs", c.Docs, 1_000_000, "documents"),
		lab.Refuse(c.Wait < 0, "wait %v: want 0 or more", c.Wait),
		lab.Refuse(c.Wait > time.Second, "wait %v: want at most 1s", c.Wait),
		lab.Refuse(c.Topic == "", `topic "": want a word to look for`),
		lab.Refuse(c.Workers < 0, "workers %d: want 0 (one per CPU) or more", c.Workers),
		lab.AtMost("workers", c.Workers, 100_000, ""),
		lab.Refuse(c.Goroutines < 0, "goroutines %d: want 0 (one per CPU) or more", c.Goroutines),
		lab.AtMost("goroutines", c.Goroutines, 10_000, ""),
		lab.AtLeast("reps", c.Reps, 1, ""),
		lab.AtMost("reps", c.Reps, 1000, ""),
		lab.Refuse(c.MinRun < 0, "min-run %v: want 0 (one pass a run) or more", c.MinRun),
		lab.Refuse(c.MinRun > 10*time.Second, "min-run %v: want at most 10s", c.MinRun),
		lab.NotEmpty("workloads", c.Workloads, "of "+strings.Join(Workloads(), ", ")),
		lab.Choices("workloads", c.Workloads, Workloads(), "want some of "+strings.Join(Workloads(), ", ")),
	)
}

// Memory is what a run holds at most: the integers it adds and sorts (and
// their copy), and the documents it searches.
func (c Config) Memory() (float64, []string) {
	return 8*float64(c.AddSize) + 24*float64(c.SortSize) + 256*float64(c.Docs),
		[]string{fmt.Sprint("--add-size ", c.AddSize), fmt.Sprint("--sort-size ", c.SortSize), fmt.Sprint("--docs ", c.Docs)}
}

// Run measures add, sort and find at each CPU count, both ways in turns;
// a point is the median run, every run's time its latency. A wrong answer
// is an error.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	if err := lab.Check(c, cpus); err != nil {
		return nil, err
	}
	in := &inputs{numbers: addInput(c.AddSize)}
	in.unsorted, in.sorted = sortInput(c.SortSize)
	var err error
	if in.docs, in.found, err = findInput(c.Docs, c.Topic); err != nil {
		return nil, err
	}
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, w := range in.workloads(c) {
			passes, err := w.passes(n, c.MinRun)
			if err != nil {
				return err
			}
			var ts [2]lab.Runs
			err = lab.Turns(ctx, c.Reps, 2, func(_, i int) error {
				lap, err := w.run(i, passes, n)
				if err != nil {
					return err
				}
				ts[i].Add(lap)
				return nil
			})
			if err != nil {
				return err
			}
			speedup := lab.IntervalOf(lab.Ratios(ts[0], ts[1]))
			for i := range ways {
				p := ts[i].Point(Name, w.name+"/"+ways[i], n, []int{1, w.par}[i], int64(passes)*w.ops, w.unit, map[results.Metric]float64{MetricSpeedup: 1})
				p.Set(MetricMedianMs, p.Latency.P50)
				p.Set(MetricPasses, float64(passes))
				told := results.LabPoint{Rate: results.Interval{N: c.Reps}}
				if i == 1 {
					speedup.Set(&p, MetricSpeedup)
					told.Vs = results.Interval(speedup)
				}
				add(p, told)
			}
		}
		return nil
	})
}

// passes runs each way of w once, untimed, to warm it, and returns how
// many times a run must do w for the sequential way to last minRun.
func (w workload) passes(n int, minRun time.Duration) (int, error) {
	var seq time.Duration
	for i := range ways {
		lap, err := w.run(i, 1, n)
		if err != nil {
			return 0, err
		}
		if i == 0 {
			seq = lap.Wall
		}
	}
	if minRun <= 0 || seq >= minRun {
		return 1, nil
	}
	return int(min((minRun+seq-1)/max(seq, 1), 10_000)), nil
}

// run does w the i-th way passes times, each from its prepared input and
// checked; the window is their timed stretches together.
func (w workload) run(i, passes, n int) (sweep.Window, error) {
	var all sweep.Window
	for range passes {
		if w.prepare != nil {
			w.prepare()
		}
		sw := sweep.StartStopwatch()
		err := w.do[i]()
		lap := sw.Stop()
		if err != nil {
			return all, fmt.Errorf("%s/%s on %d CPUs: %w", w.name, ways[i], n, err)
		}
		if err := w.check(); err != nil {
			return all, fmt.Errorf("%s/%s on %d CPUs: wrong answer: %w", w.name, ways[i], n, err)
		}
		all.Add(lap)
	}
	return all, nil
}

var ways = [2]string{"sequential", "concurrent"}

// workload is one workload, ready to be timed both ways: prepare runs
// untimed before each run, do[i] is the run of ways[i], check (untimed)
// says whether its answer was right.
type workload struct {
	name    string
	par     int    // goroutines of the concurrent run
	ops     int64  // work items per run
	unit    string // its own: a lab's summary ranks variants of a unit, and add's ints are not sort's
	prepare func()
	do      [2]func() error
	check   func() error
}

type inputs struct {
	numbers          []int // add's
	unsorted, sorted []int // sort's input and its right answer
	docs             [][]byte
	found            int // how many docs mention the topic
}

// workloads returns those of c's chosen, bound to the inputs.
func (in *inputs) workloads(c Config) []workload {
	g := cmp.Or(c.Goroutines, runtime.NumCPU())
	workers := min(cmp.Or(c.Workers, runtime.NumCPU()), len(in.docs))
	var sum, found int
	wantSum := addWant(len(in.numbers))
	work := make([]int, len(in.unsorted))
	all := []workload{{
		name: "add", par: g, ops: int64(len(in.numbers)), unit: "ints summed/s",
		do: [2]func() error{
			func() error { sum = add(in.numbers); return nil },
			func() error { sum = addConcurrent(g, in.numbers); return nil },
		},
		check: func() error { return lab.Refuse(sum != wantSum, "sum %d, want %d", sum, wantSum) },
	}, {
		name: "sort", par: g, ops: int64(len(in.unsorted)), unit: "ints sorted/s",
		prepare: func() { copy(work, in.unsorted) },
		do: [2]func() error{
			func() error { bubbleSort(work); return nil },
			func() error { sortConcurrent(g, work); return nil },
		},
		check: func() error {
			for i := range work {
				if work[i] != in.sorted[i] {
					return fmt.Errorf("element %d is %d, want %d: not sorted, or not the input's elements", i, work[i], in.sorted[i])
				}
			}
			return nil
		},
	}, {
		name: "find", par: workers, ops: int64(len(in.docs)), unit: "docs/s",
		do: [2]func() error{
			func() (err error) {
				found, err = find(c.Topic, in.docs, c.Wait)
				return err
			},
			func() (err error) {
				found, err = findConcurrent(workers, c.Topic, in.docs, c.Wait)
				return err
			},
		},
		check: func() error {
			return lab.Refuse(found != in.found, "found %q in %d documents, want %d", c.Topic, found, in.found)
		},
	}}
	return slices.DeleteFunc(all, func(w workload) bool { return !slices.Contains(c.Workloads, w.name) })
}
