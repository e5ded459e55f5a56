// Command published holds the model against behaviours of Go's primitives
// that were measured and published on machines with more cores than this
// one (validation/testdata/published, copied from the reference data with
// its README): each series is a blueprint in this folder, whose comments
// say what is assumed, predicted on its published core counts for the
// published machine's shape, and printed beside the published figures as
// speed-ups against each one's own one-CPU throughput.
//
// A prediction's band spans the go policy's costs at their intervals'
// edges (the calibration's, a file, so that the output is the same on
// every run) and the cost of moving a cache line between cores over what
// published machines show, since these machines' own are not known: each
// edge's speed-up against its own one-CPU throughput. A series' step
// durations are set so that one CPU takes the published one-CPU time, the
// one figure of each series the model is given.
//
// It prints, for every published point past one CPU, whether the band
// holds it (with 10 % slack), how far the point predicted is off, and the
// band's width; then issue 54's criteria over them all.
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/cmdline"
	"github.com/brewput/brewput/validation/internal/machines"
	"github.com/brewput/brewput/validation/internal/runtimes"
)

// series is one published curve: the rows of a CSV file whose source
// holds source and whose metric is metric, and how to predict them.
type series struct {
	title       string
	csv, source string
	metric      string
	file        string // the blueprint
	machine     string // machines.Lookup's name
	runtime     string
	customers   func(cores int) int // 0: one per CPU
	cpus        func(cores int) int // the CPUs a published count means; nil: the count
	speedups    bool                // the published values are speed-ups, not ns/op
	base        float64             // the one-CPU ns/op where the series gives only speed-ups
	dur         time.Duration       // simulated window of each point
	onlyCores   []int               // where set, the counts to use
	expressedBy string              // what the blueprint stands for, where not the metric itself
	pairs       bool                // half the CPUs produce, half consume (stage "consume")
	per         int                 // orders in one published op (BenchmarkPool's 100 pairs); 0: 1
	everyCPU    bool                // measured: the workers on every CPU of the machine (cpus)
	newer       bool                // measured: a benchmark later than some folders' runs, skipped where they lack it
}

func perCPU(int) int { return 0 }

var all = []series{
	{title: "sync.Mutex, empty critical section, a goroutine per P (2011, barging)", csv: "sync_mutex_short_cs_2011.csv", source: "dd2074c8",
		metric: "BenchmarkMutex new (barging impl)", file: "mutex-empty.yaml", machine: "xeon-e5620x2", runtime: "go1.0", dur: 200 * time.Microsecond},
	{title: "sync.Mutex, empty, ten goroutines a P (2011)", csv: "sync_mutex_short_cs_2011.csv", source: "dd2074c8",
		metric: "BenchmarkMutexSlack new (barging impl)", file: "mutex-empty.yaml", machine: "xeon-e5620x2", runtime: "go1.0",
		customers: func(c int) int { return 10 * c }, dur: 200 * time.Microsecond},
	{title: "a sync.Mutex per goroutine (2011)", csv: "sync_mutex_short_cs_2011.csv", source: "dd2074c8",
		metric: "BenchmarkMutexUncontended new (barging impl)", file: "mutex-private.yaml", machine: "xeon-e5620x2", runtime: "go1.0", dur: 200 * time.Microsecond},
	{title: "sync.Mutex, 100 iterations of work outside (2011)", csv: "sync_mutex_short_cs_2011.csv", source: "dd2074c8",
		metric: "BenchmarkMutexWork new", file: "mutex-work.yaml", machine: "xeon-e5620x2", runtime: "go1.0", dur: 2 * time.Millisecond},
	{title: "sync.Mutex, 1 % of each op inside, workers on 96 CPUs (#33747)", csv: "sync_mutex_collapse_33747.csv", source: "c5.24xlarge",
		metric: "Lock/sync.Mutex/cost=1000,ratio=0.010,concurrency=N old", file: "mutex96.yaml", machine: "c5.24xlarge", runtime: "go1.9",
		customers: func(c int) int { return c }, cpus: func(int) int { return 96 }, dur: 100 * time.Millisecond},
	{title: "the same, at 43 and 48 workers (#33747, most runs)", csv: "sync_mutex_collapse_33747.csv", source: "rhysh 2019-08-21",
		metric: "same run2|concurrency=48 typical run", file: "mutex96.yaml", machine: "c5.24xlarge", runtime: "go1.9", base: 354000,
		customers: func(c int) int { return c }, cpus: func(int) int { return 96 }, dur: 100 * time.Millisecond},
	{title: "one contended channel, before Go 1.24's spin bit (#68578)", csv: "runtime_mutex_chancontended.csv", source: "#68578 description",
		metric: "ChanContended throughput relative to GOMAXPROCS=1", file: "chancontended.yaml", machine: "i7-13700h", runtime: "go1.23",
		speedups: true, dur: 200 * time.Microsecond},
	{title: "one contended channel, 2011 runtime lock (ee24bfc0)", csv: "runtime_mutex_chancontended.csv", source: "ee24bfc0",
		metric: "BenchmarkChanContended new", file: "chancontended.yaml", machine: "xeon-e5620x2", runtime: "go1.23", dur: 200 * time.Microsecond,
		expressedBy: "the 2011 lock taken as Go 1.23's"},
	{title: "RWMutex read-locked empty by every P (Haswell)", csv: "rwmutex_read_scaling.csv", source: "xsync README.md @9742691",
		metric: "BenchmarkRWMutexReadOnly (RLock/RUnlock, empty CS, RunParallel, 1 goroutine per P)", file: "rwmutex-read.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: 200 * time.Microsecond},
	{title: "RBMutex, readers on slots of their own (Haswell)", csv: "rwmutex_read_scaling.csv", source: "xsync README.md @9742691",
		metric: "BenchmarkRBMutexReadOnly (sharded reader slots, same loop)", file: "rbmutex.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: 200 * time.Microsecond},
	{title: "RWMutex read-locked around 100 iterations (Haswell)", csv: "rwmutex_read_scaling.csv", source: "xsync README.md @9742691",
		metric: "BenchmarkRWMutexWorkReadOnly (RLock + 100x{foo*=2;foo/=2} in CS)", file: "rwmutex-work.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: time.Millisecond},
	{title: "RBMutex around 100 iterations (Haswell)", csv: "rwmutex_read_scaling.csv", source: "xsync README.md @9742691",
		metric: "BenchmarkRBMutexWorkReadOnly", file: "rbmutex-work.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: time.Millisecond},
	{title: "RWMutex read-locked, write-locked 1 op in 10000 (Haswell)", csv: "rwmutex_read_scaling.csv", source: "xsync README.md @9742691",
		metric: "BenchmarkRWMutexWrite10000 (Lock every 10000th iteration else RLock, empty CS)", file: "rwmutex-write.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: time.Millisecond},
	{title: "RWMutex around 100 iterations, writes 1 in 100000 (Graviton2)", csv: "rwmutex_read_scaling.csv", source: "BENCHMARKS.md",
		metric: "RWMutexWorkWrite100000 (RLock+100-iter loop; Lock every 100000th)", file: "rwmutex-workwrite.yaml", machine: "c6g.metal", runtime: "go1.23", dur: 2 * time.Millisecond},
	{title: "RBMutex around 100 iterations, writes 1 in 100000 (Graviton2)", csv: "rwmutex_read_scaling.csv", source: "BENCHMARKS.md",
		metric: "RBMutexWorkWrite100000", file: "rbmutex-work.yaml", machine: "c6g.metal", runtime: "go1.23", dur: time.Millisecond},
	{title: "one atomic counter, every P adding (Graviton2)", csv: "atomic_counter_single_line_vs_striped.csv", source: "BENCHMARKS.md",
		metric: "AtomicInt64 (atomic.AddInt64 on one int64; Load every 10000th)", file: "atomic.yaml", machine: "c6g.metal", runtime: "go1.23", dur: 200 * time.Microsecond},
	{title: "a striped counter (Graviton2)", csv: "atomic_counter_single_line_vs_striped.csv", source: "BENCHMARKS.md",
		metric: "Counter (xsync striped counter, LongAdder-like)", file: "striped.yaml", machine: "c6g.metal", runtime: "go1.23", dur: 200 * time.Microsecond},
	{title: "one atomic counter (Haswell)", csv: "atomic_counter_single_line_vs_striped.csv", source: "images/*.svg",
		metric: "BenchmarkAtomicInt64 (counter-chart.svg)", file: "atomic.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: 200 * time.Microsecond},
	{title: "a striped counter (Haswell)", csv: "atomic_counter_single_line_vs_striped.csv", source: "images/*.svg",
		metric: "BenchmarkCounter (counter-chart.svg)", file: "striped32.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: 200 * time.Microsecond},
	{title: "producer/consumer pairs on one buffered channel, with work (Graviton2)", csv: "channel_buffered_prodcons.csv", source: "BENCHMARKS.md",
		metric: "ChanProdConsWork100 (GOMAXPROCS/2 producer+consumer pairs, shared chan cap 1000, 100-iter work per item each side)", file: "prodcons.yaml", machine: "c6g.metal", runtime: "go1.23", dur: time.Millisecond, pairs: true},
	{title: "the same (Haswell)", csv: "channel_buffered_prodcons.csv", source: "images/*.svg",
		metric: "ChanProdConsWork100 (mpmcqueue-work-chart.svg)", file: "prodcons.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: time.Millisecond, pairs: true},
	{title: "the same without work (Haswell)", csv: "channel_buffered_prodcons.csv", source: "images/*.svg",
		metric: "ChanProdCons no work, chan cap 1000 (mpmcqueue-no-work-chart.svg)", file: "prodcons.yaml", machine: "e2-highcpu-32", runtime: "go1.23", dur: 200 * time.Microsecond, pairs: true},
	// f8e0057b ran on Go 1.3, before Go 1.5 gave sync.Mutex its spinning and
	// the scheduler its runnext slot: the go1.0 runtime.
	{title: "sync.Pool behind one global mutex (2014)", csv: "sync_pool_perP_vs_global.csv", source: "f8e0057b",
		metric: "BenchmarkPool old (global mutex-protected cache)", file: "pool-global.yaml", machine: "unknown", runtime: "go1.0", dur: time.Millisecond, per: 100},
	{title: "sync.Pool with per-P caches (2014)", csv: "sync_pool_perP_vs_global.csv", source: "f8e0057b",
		metric: "BenchmarkPool new (P-local caches)", file: "pool-perp.yaml", machine: "unknown", runtime: "go1.0", dur: time.Millisecond, per: 100},
	{title: "Sprintf on a pool behind one global mutex (2014)", csv: "sync_pool_perP_vs_global.csv", source: "f8e0057b",
		metric: "BenchmarkSprintfEmpty old (global mutex-protected cache)", file: "sprintf-global.yaml", machine: "unknown", runtime: "go1.0", dur: 500 * time.Microsecond},
	{title: "Sprintf on sync.Pool with per-P caches (2014)", csv: "sync_pool_perP_vs_global.csv", source: "f8e0057b",
		metric: "BenchmarkSprintfEmpty new (P-local caches)", file: "sprintf-perp.yaml", machine: "unknown", runtime: "go1.0", dur: 500 * time.Microsecond},
	{title: "sync.Map, reads only (Graviton2)", csv: "syncmap_vs_concurrent_map_read_write_mix.csv", source: "BENCHMARKS.md",
		metric: "sync.Map 1000 int keys warm, 100% Load (IntegerMapStandard_WarmUp/reads=100%)", file: "syncmap-read.yaml", machine: "c6g.metal", runtime: "go1.23", dur: 500 * time.Microsecond},
}

// row is a published figure: cores (or workers) and its value.
type row struct {
	cores int
	value float64
}

// point is one published point's comparison.
type point struct {
	cores             int
	published         float64 // speed-up against its own one-CPU figure
	predicted, lo, hi float64 // the point's and its band's speed-ups
	inBand            bool
	off               float64 // predicted over published, or its inverse, at least 1
	// rough says the model marked the prediction rough (a brief,
	// contended lock: results.CaveatShortHold).
	rough bool
	// line says the model marked it rough for a word many cores write
	// (results.CaveatSharedLine).
	line bool
	// lockstep says a goroutine of the point's simulation, or of its
	// band's, finished nothing (results.CaveatLockstep).
	lockstep bool
	width    float64 // hi over lo
}

const slack = 0.10

func main() {
	calibration := flag.String("calibration", "", "calibration file of the go policy's costs "+
		"(default: validation/testdata/calibration.json, this machine's of 2026-11-25)")
	only := flag.String("only", "", "run only the series whose title holds this")
	keep := flag.Bool("keep-lines", false, "an experiment: a core keeps a cache line about as long as it took to come "+
		"(model/sim.Transfer.Keep), where by default it leaves as soon as another core asks")
	flag.Parse()
	root := strings.TrimSpace(string(cmdline.Output("go", "list", "-m", "-f", "{{.Dir}}", "github.com/brewput/brewput")))
	if *calibration == "" {
		*calibration = filepath.Join(root, "validation", "testdata", "calibration.json")
	}
	report(os.Stdout, root, *calibration, *only, *keep)
}

// report writes the comparison of every series (those whose title holds
// only, where not "") under the calibration in file, from the repository
// at root; with keep, under the other rule for a line's stay
// (model/sim.Transfer.Keep).
func report(w io.Writer, root, file, only string, keep bool) {
	cal, err := calibrate.Load(file)
	cmdline.Check(err)
	here := filepath.Join(root, "validation", "published")
	data := filepath.Join(root, "validation", "testdata", "published")
	fmt.Fprintf(w, "go policy under %s; each series on its published machine's\n", filepath.Base(file))
	fmt.Fprintf(w, "shape, its band spanning the calibration's intervals and the machine's\n")
	fmt.Fprintf(w, "costs: its processor's published core-to-core latency ±20 %% where\n")
	fmt.Fprintf(w, "one is published (c6g.metal, c5.24xlarge), else an unknown machine's;\n")
	fmt.Fprintf(w, "speed-ups against one CPU\n")
	if keep {
		fmt.Fprintf(w, "-keep-lines: a core keeps a cache line about as long as it took to come\n")
	}

	// Each section simulates on its own: they run side by side (the
	// report took minutes one after another) and print in order.
	var (
		sections          []func(w io.Writer)
		series            = make([][]point, len(all))
		pud               point
		measured, twoCPUs []point
		study             []point
		later             = make([]lendingTally, len(heldOut))
	)
	for i, s := range all {
		if only != "" && !strings.Contains(s.title, only) {
			continue
		}
		sections = append(sections, func(w io.Writer) {
			rows := read(filepath.Join(data, s.csv), s.source, s.metric)
			if len(rows) == 0 {
				cmdline.Fail(fmt.Errorf("%s: no rows of %q from %q", s.csv, s.metric, s.source))
			}
			hw, err := machines.Lookup(s.machine, maxCores(s, rows))
			cmdline.Check(err)
			got, note := predict(here, s, rows, cal, hw, keep)
			fmt.Fprintf(w, "\n%d. %s\n   %s, %s on %s\n", i+1, s.title, s.csv, s.file, s.machine)
			if note != "" {
				fmt.Fprintf(w, "   %s\n", note)
			}
			printPoints(w, got, "published")
			series[i] = got
		})
	}
	if only == "" {
		sections = append(sections, func(w io.Writer) { pud = puddle(w, here, cal) })
	}
	sections = append(sections, func(w io.Writer) {
		measured = reportMeasured(w, root, "manycore", "", only, keep, fullTables)
	})
	if only == "" {
		sections = append(sections, func(w io.Writer) {
			reportShop(w, root, "manycore")
			n := 0
			for _, st := range studies {
				var got []point
				got, n = reportStudy(w, root, "manycore", st.file, st.name, st.pkg, n)
				study = append(study, got...)
			}
		})
	}
	// The later lendings are held out: a row a series, and their studies'
	// tally only.
	for i, l := range heldOut {
		sections = append(sections, func(w io.Writer) {
			t := lendingTally{lending: l}
			if only == "" {
				for _, st := range studies {
					got, _ := reportStudy(io.Discard, root, l.dir, st.file, st.name, st.pkg, 0)
					t.study = append(t.study, got...)
				}
			}
			t.prims = reportMeasured(w, root, l.dir, l.letter, only, keep, summaryRows)
			if only == "" {
				reportShop(w, root, l.dir)
			}
			later[i] = t
		})
	}
	sections = append(sections, func(w io.Writer) {
		twoCPUs = reportMeasured(w, root, "twocpu", "", only, keep, fullTables)
	})
	inOrder(w, sections)
	var pts []point
	for _, got := range series {
		pts = append(pts, got...)
	}
	if only == "" {
		pts = append(pts, pud)
	}
	fmt.Fprintf(w, "\nnot expressed (docs/model.md says what each lacks):\n")
	for _, ne := range notExpressed {
		fmt.Fprintf(w, "  %s\n", ne)
	}
	fmt.Fprintf(w, "\ndone when (issue 54), on the %d published points past one CPU:\n", len(pts))
	tally(w, pts)
	if only == "" || len(measured) > 0 {
		fmt.Fprintf(w, "\nthe same, on the %d points measured past one CPU on 16 vCPUs:\n", len(measured))
		tally(w, measured)
	}
	for _, t := range later {
		if only == "" || len(t.prims) > 0 {
			fmt.Fprintf(w, "\nthe same, on the %d points measured past one CPU on %s\n", len(t.prims), t.what)
			fmt.Fprintf(w, "of 16 vCPUs (testdata/%s), held out:\n", t.dir)
			tally(w, t.prims)
		}
	}
	if only == "" || len(twoCPUs) > 0 {
		fmt.Fprintf(w, "\nthe same, on the %d measured on this project's 2-vCPU machine:\n", len(twoCPUs))
		tally(w, twoCPUs)
	}
	if len(study) > 0 {
		fmt.Fprintf(w, "\nthe studies' %d points past the 2 CPUs their models were made from:\n", len(study))
		tally(w, study)
	}
	for _, t := range later {
		if len(t.study) > 0 {
			fmt.Fprintf(w, "\nthe same studies measured on %s (testdata/%s),\n", t.what, t.dir)
			fmt.Fprintf(w, "each predicted from its own points on 1 and 2 CPUs there, held out:\n")
			tally(w, t.study)
		}
	}
}

// inOrder runs each section into a buffer of its own, as many at once as
// there are CPUs, and writes their output to w in the sections' order.
func inOrder(w io.Writer, sections []func(io.Writer)) {
	bufs := make([]bytes.Buffer, len(sections))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, f := range sections {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			f(&bufs[i])
		})
	}
	wg.Wait()
	for i := range bufs {
		w.Write(bufs[i].Bytes())
	}
}

// A lending is a later loan of a 16-vCPU machine of testdata/manycore's
// kind, measured by the same run.sh and studypoints.sh and held out from
// the model's work: its folder, the letter of its summary rows, and what
// the report calls it.
type lending struct{ dir, letter, what string }

var heldOut = []lending{
	{"manycore2", "L", "a later lending"},
	{"manycore3", "N", "a third lending"},
}

// lendingTally is a held-out lending's points: its primitives' and its
// studies'.
type lendingTally struct {
	lending
	prims, study []point
}

// tally writes issue 54's criteria over pts.
func tally(w io.Writer, pts []point) {
	in, within2, narrow, worst, wide := 0, 0, 0, 0.0, 0.0
	rough, over, overRough, lockstep := 0, 0, 0, 0
	line, overLine := 0, 0
	for _, p := range pts {
		if p.line {
			line++
			if p.off > 2 {
				overLine++
			}
		}
		if p.lockstep {
			lockstep++
		}
		if p.rough {
			rough++
		}
		if p.off > 2 {
			over++
			if p.rough {
				overRough++
			}
		}
		if p.inBand {
			in++
		}
		if p.off <= 2 {
			within2++
		}
		if p.width <= 2.5 {
			narrow++
		}
		worst, wide = max(worst, p.off), max(wide, p.width)
	}
	n := float64(max(1, len(pts)))
	met := func(ok bool) string { return map[bool]string{true: "met", false: "NOT met"}[ok] }
	fmt.Fprintf(w, "  in the band (10 %% slack) at ≥ 80 %%  %-7s  %d = %.0f %%\n", met(float64(in) >= 0.8*n), in, 100*float64(in)/n)
	fmt.Fprintf(w, "  none off by more than 2×           %-7s  %d within, worst %.2f×\n", met(within2 == len(pts)), within2, worst)
	fmt.Fprintf(w, "  bands at most 2.5× wide            %-7s  %d, widest %.2f×\n", met(narrow == len(pts)), narrow, wide)
	fmt.Fprintf(w, "the model's rough note (~) on %d points, %d of them off by more than 2×\n(of %d such points in all)\n",
		rough, overRough, over)
	fmt.Fprintf(w, "the model's shared-line note (^) on %d points, %d of them off by more than 2×\n", line, overLine)
	if lockstep > 0 {
		fmt.Fprintf(w, "the model's lockstep note (!) on %d points\n", lockstep)
	}
}

// printPoints writes a series' table of points, and the model's notes on
// them.
func printPoints(w io.Writer, got []point, what string) {
	fmt.Fprintf(w, "   %5s  %9s  %9s  %-17s  %5s  %5s\n", "cores", what, "predicted", "band", "in", "off")
	for _, p := range got {
		fmt.Fprintf(w, "   %5d  %8.2f×  %8.2f×%s [%6.2f, %6.2f]  %5s  %4.2f×\n", p.cores, p.published, p.predicted, p.mark(), p.lo, p.hi, p.in(), p.off)
	}
	printNotes(w, got)
}

// mark is p's note's mark in a table: the model's lockstep, shared-line or
// rough note, or none.
func (p point) mark() string {
	switch {
	case p.lockstep:
		return "!"
	case p.line:
		return "^"
	case p.rough:
		return "~"
	}
	return " "
}

// in says whether p's band holds it.
func (p point) in() string { return map[bool]string{true: "yes", false: "no"}[p.inBand] }

// printNotes writes what the marks of pts' notes mean, those that appear.
func printNotes(w io.Writer, pts []point) {
	rough, line, lockstep := false, false, false
	for _, p := range pts {
		rough, line, lockstep = rough || p.rough, line || p.line, lockstep || p.lockstep
	}
	if rough {
		fmt.Fprintf(w, "   ~ the model's note: a brief, contended lock, which machines ran from a\n     sixteenth of to ten times the model's figure, most within 4×; rough\n")
	}
	if line {
		fmt.Fprintf(w, "   %s\n", format.Wrap("^ the model's note: "+text.SharedLineSpread+"; rough", 77, "     "))
	}
	if lockstep {
		fmt.Fprintf(w, "   ! the model's note: a goroutine finished nothing in a simulation of\n     the point or its band (lockstep); not to be trusted\n")
	}
}

// notExpressed are the published series no blueprint stands for, each
// with what the model lacks.
var notExpressed = []string{
	"sync.Mutex before 2011's barging (dd2074c8 \"old\"): one that hands",
	"    itself to its first waiter at every unlock; the model's barges",
	"goroutine creation and the run queues (4722b1cb): no cost for",
	"    making a goroutine",
	"MutexCapture (adc9c455): the benchmark's body is not in hand",
	"sync.Map with writes, xsync's MapOf and MPMCQueue: a map's misses",
	"    promoting its dirty copy, and lock-free queues' slots",
	"sync.Pool overflow (f8e0057b, 8fc6ed4c): objects moving between",
	"    P-local and shared pools",
	"RWMutex/1 and /4 of golang/go#17973: rows past 4 CPUs cut off",
}

// puddle is jackc/puddle#46: a pool of 4 under 100 goroutines, each
// holding 1 ms and working 1 ms of CPU after its release, on 4 CPUs; the
// published figure is the throughput before the fix against after it
// (which hands a released unit over at once), the predicted one the go
// policy's against fifo's, whose handoffs are free and immediate.
func puddle(w io.Writer, dir string, cal calibrate.Calibration) point {
	b, err := blueprint.Load(filepath.Join(dir, "puddle.yaml"))
	cmdline.Check(err)
	hw, err := machines.Lookup("unknown", 4)
	cmdline.Check(err)
	// The point and its band's runs, as brewput model runs them for an
	// unknown machine of 4 CPUs (model.Config.Edges).
	cfg := model.SystemConfig(b, 4)
	cfg.Policy.Sched, cfg.Policy.Seed, cfg.Machine = "go", 1, hw.Shape
	cfg.Costs = cal.Costs
	cfg.Costs.Transfer, cfg.Costs.AllCore = hw.Transfer, hw.AllCore
	cfg.Dur, cfg.Warmup = 200*time.Millisecond, 100*time.Millisecond
	cfg.Range = &model.Range{Lo: cal.Lo, Hi: cal.Hi, Machine: hw.Range()}
	cfgs := append([]model.Config{cfg}, cfg.Edges()...)
	cfgs[0].Range = nil
	fifo := model.SystemConfig(b, 4)
	fifo.Policy.Sched, fifo.Dur, fifo.Warmup = "fifo", 200*time.Millisecond, 100*time.Millisecond
	res, err := model.Simulate(context.Background(), append(cfgs, fifo), nil)
	cmdline.Check(err)
	f := res[len(res)-1].Throughput
	p := point{cores: 4, published: 255.5 / 418, predicted: res[0].Throughput / f, lo: math.Inf(1)}
	for _, r := range res[:len(cfgs)] {
		p.lo, p.hi = min(p.lo, r.Throughput/f), max(p.hi, r.Throughput/f)
	}
	p.inBand = p.published >= p.lo/(1+slack) && p.published <= p.hi*(1+slack)
	p.off = max(p.predicted/p.published, p.published/p.predicted)
	p.width = p.hi / p.lo
	fmt.Fprintf(w, "\n%d. a released resource idle while its releaser runs on (jackc/puddle#46)\n", len(all)+1)
	fmt.Fprintf(w, "   puddle_runnext_handoff.csv, puddle.yaml on 4 CPUs: before the fix\n")
	fmt.Fprintf(w, "   against after it; predicted, the go policy against fifo, whose\n")
	fmt.Fprintf(w, "   handoff is immediate\n")
	fmt.Fprintf(w, "   %5s  %9s  %9s  %-17s  %5s  %5s\n", "cores", "published", "predicted", "band", "in", "off")
	in := map[bool]string{true: "yes", false: "no"}[p.inBand]
	fmt.Fprintf(w, "   %5d  %8.2f×  %8.2f×  [%6.2f, %6.2f]  %5s  %4.2f×\n", p.cores, p.published, p.predicted, p.lo, p.hi, in, p.off)
	return p
}

// read is the rows of file from source with metric, by cores, in order.
func read(file, source, metric string) []row {
	f, err := os.Open(file)
	cmdline.Check(err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	cmdline.Check(err)
	var out []row
	for _, r := range recs[1:] {
		if !strings.Contains(r[0], source) || !slices.Contains(strings.Split(metric, "|"), r[2]) {
			continue
		}
		cores, err := strconv.Atoi(r[1])
		if err != nil {
			continue
		}
		v, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			continue
		}
		switch r[4] {
		case "us/op":
			v *= 1000
		case "ns/op", "ratio":
		default:
			continue
		}
		out = append(out, row{cores, v})
	}
	slices.SortStableFunc(out, func(a, b row) int { return a.cores - b.cores })
	return out
}

// predict simulates s on each published count and on one CPU, at the
// calibration's point and at its band's edges crossed with the machine's
// transfer costs, and compares each count's speed-ups with the published.
func predict(dir string, s series, rows []row, cal calibrate.Calibration, hw model.Hardware, keep bool) ([]point, string) {
	b, err := blueprint.Load(filepath.Join(dir, s.file))
	cmdline.Check(err)
	one := s.base
	if !s.speedups && one == 0 {
		if rows[0].cores != 1 {
			cmdline.Fail(fmt.Errorf("%s: no one-CPU figure", s.title))
		}
		one = rows[0].value
	}
	cores := []int{1}
	for _, r := range rows {
		if r.cores > 1 {
			cores = append(cores, r.cores)
		}
	}
	// The point and the runs its band simulates, as brewput model's band
	// runs them (model.Config.Edges): the calibration's and the machine's
	// corners, the slow ones also on CPUs that are hardware threads where
	// the machine's shape is not known, and three other start states.
	rng := &model.Range{Lo: cal.Lo, Hi: cal.Hi, Machine: hw.Range()}
	config := func(n int) model.Config {
		cpus := n
		if s.cpus != nil {
			cpus = s.cpus(n)
		}
		c := model.SystemConfig(b, cpus)
		q, err := runtimes.Quirks(s.runtime)
		if err != nil {
			panic(err) // the table's own
		}
		c.Policy.Sched, c.Quirks, c.Policy.Seed = "go", q, 1
		c.Costs = cal.Costs
		c.Costs.Transfer, c.Costs.AllCore = hw.Transfer, hw.AllCore
		c.Machine = hw.Shape
		if s.customers != nil {
			c.Par = s.customers(n)
		}
		if s.pairs {
			c.Par = max(1, cpus/2)
			bp := *b
			bp.Workers = map[string]int{"consume": max(1, cpus/2) - 1}
			c.System = &bp
		}
		c.Dur, c.Warmup = s.dur, s.dur/4
		if n == 1 && s.pairs {
			// On one CPU the producers fill the buffer and the
			// consumers drain it in turn, cycles as long as a window:
			// the speed-ups' base is read over many.
			c.Dur = oneCPUWindows * s.dur
		}
		c.Range = rng
		c.Costs.Transfer.Keep = keep
		return c
	}
	var note string
	if one > 0 {
		ns := one / float64(max(1, s.per))
		scale(b, ns)
		// The engine adds what its primitives cost of themselves to the
		// steps' time (a channel operation holds its runtime lock): the
		// steps are what the published one-CPU time leaves of that.
		first := config(1)
		first.Range = nil
		res, err := model.Simulate(context.Background(), []model.Config{first}, nil)
		cmdline.Check(err)
		// Where they take more, the steps are left a tenth of it, and the
		// note says so.
		if sim := 1e9 / res[0].Throughput; sim > ns*(1+noticed) {
			steps := ns - (sim - ns)
			if steps < ns*minWork {
				note = fmt.Sprintf("the engine's own costs on one CPU (%s an order) are more than the\n   %s an order took there: its steps are left a tenth of that", nanos(sim-ns), nanos(ns))
				steps = ns * minWork
			} else {
				note = fmt.Sprintf("its steps %s of the %s an order took on one CPU, the engine's\n   own costs (its channel's, its locks') the rest", nanos(steps), nanos(ns))
			}
			scale(b, steps)
		}
	}
	var cfgs []model.Config
	edges := 0
	for _, n := range cores {
		c := config(n)
		runs := append([]model.Config{c}, c.Edges()...)
		runs[0].Range = nil
		if edges == 0 {
			edges = len(runs)
		} else if len(runs) != edges {
			cmdline.Fail(fmt.Errorf("%s: %d runs in the band on %d CPUs, %d on one", s.title, len(runs), n, edges))
		}
		for i := range runs {
			runs[i].Costs.Transfer.Keep = keep
		}
		cfgs = append(cfgs, runs...)
	}
	res, err := model.Simulate(context.Background(), cfgs, nil)
	cmdline.Check(err)
	thr := func(i, e int) float64 { return res[i*edges+e].Throughput }
	var out []point
	for i, n := range cores[1:] {
		i++
		var pub float64
		for _, r := range rows {
			if r.cores == n {
				pub = r.value
				if !s.speedups {
					pub = one / r.value
				}
			}
		}
		p := point{cores: n, published: pub, predicted: thr(i, 0) / thr(0, 0), lo: math.Inf(1), hi: 0}
		for e := range edges {
			su := thr(i, e) / thr(0, e)
			p.lo, p.hi = min(p.lo, su), max(p.hi, su)
		}
		p.lo, p.hi = min(p.lo, p.predicted), max(p.hi, p.predicted)
		p.inBand = pub >= p.lo/(1+slack) && pub <= p.hi*(1+slack)
		p.off = max(p.predicted/pub, pub/p.predicted)
		p.width = p.hi / p.lo
		p.rough = slices.ContainsFunc(res[i*edges].Caveats, func(c results.Caveat) bool { return c.Kind == results.CaveatShortHold })
		p.line = slices.ContainsFunc(res[i*edges].Caveats, func(c results.Caveat) bool { return c.Kind == results.CaveatSharedLine })
		for e := range edges {
			p.lockstep = p.lockstep || slices.ContainsFunc(res[i*edges+e].Caveats, func(c results.Caveat) bool { return c.Kind == results.CaveatLockstep })
		}
		out = append(out, p)
	}
	return out, note
}

// maxCores is the most CPUs a series' rows ask for.
func maxCores(s series, rows []row) int {
	n := 1
	for _, r := range rows {
		c := r.cores
		if s.cpus != nil {
			c = s.cpus(r.cores)
		}
		n = max(n, c)
	}
	return n
}

// minWork is the least share of the published one-CPU time left to the
// steps where the engine's own costs would take more; noticed is the share
// of it the engine may add before the steps are made shorter (its
// simulations count whole orders in a window).
const (
	minWork = 0.1
	noticed = 0.01
)

// oneCPUWindows is how many of a pairs series' windows its one-CPU runs
// last.
const oneCPUWindows = 20

// nanos formats d nanoseconds for a note.
func nanos(d float64) string {
	if d >= 1e5 {
		return fmt.Sprintf("%.1f µs", d/1e3)
	}
	return fmt.Sprintf("%.1f ns", d)
}

// scale sets every step's duration so that one order takes ns of CPU.
func scale(b *blueprint.Blueprint, ns float64) {
	st, err := b.Structure(1, 1)
	cmdline.Check(err)
	f := ns / (st.CPU * 1e9)
	if b.Scale == nil {
		b.Scale = map[string]float64{}
	}
	for _, step := range b.Steps() {
		b.Scale[step.Name] = f
	}
}
