package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/benchtext"
	"github.com/brewput/brewput/validation/internal/cmdline"
)

// The published behaviours measured again, on a machine of more cores
// than this one that brewput could calibrate (validation/manycore/run.sh,
// its output in testdata/manycore; testdata/manycore2 and manycore3 are
// later lendings of the same kind, held out from the model's work) and on this project's
// 2-vCPU machine (testdata/twocpu): each series a benchmark of validation/manycore
// predicted by the same blueprint as the published one, on the machine's
// shape with its own calibration, as a user who ran brewput calibrate
// there would predict it.
var measuredSeries = []series{
	{title: "sync.Mutex, empty critical section, a goroutine per P", metric: "Mutex/goroutines=1P", file: "mutex-empty.yaml", dur: 5 * time.Millisecond},
	{title: "sync.Mutex, empty, ten goroutines a P", metric: "Mutex/goroutines=10P", file: "mutex-empty.yaml",
		customers: func(c int) int { return 10 * c }, dur: 5 * time.Millisecond},
	{title: "a sync.Mutex per goroutine", metric: "MutexUncontended", file: "mutex-private.yaml", dur: 200 * time.Microsecond},
	{title: "sync.Mutex, 100 iterations of work outside", metric: "MutexWork", file: "mutex-work.yaml", dur: 2 * time.Millisecond},
	{title: "100 iterations of work and nothing shared", metric: "PrivateWork", file: "private-work.yaml", dur: 2 * time.Millisecond},
	{title: "sync.Mutex, 20 iterations inside and 20 outside", metric: "MutexShortHold", file: "mutex-short.yaml", dur: time.Millisecond},
	{title: "sync.Mutex, 1 % of each op inside, workers on every CPU (#33747's)", metric: "Lock/ratio=0.01", file: "mutex96.yaml",
		customers: func(c int) int { return c }, everyCPU: true, dur: 20 * time.Millisecond},
	{title: "sync.Mutex, 10 % of each op inside, workers on every CPU", metric: "Lock/ratio=0.10", file: "mutex-tenth.yaml",
		customers: func(c int) int { return c }, everyCPU: true, dur: 20 * time.Millisecond},
	{title: "one contended channel (the runtime's ChanContended)", metric: "ChanContended", file: "chancontended.yaml", dur: 200 * time.Microsecond},
	{title: "producer/consumer pairs on one buffered channel, no work", metric: "ChanProdCons/work=0", file: "prodcons.yaml", dur: 200 * time.Microsecond, pairs: true},
	{title: "producer/consumer pairs on one buffered channel, with work", metric: "ChanProdCons/work=100", file: "prodcons.yaml", dur: time.Millisecond, pairs: true},
	{title: "RWMutex read-locked empty by every P", metric: "RWMutex/ReadOnly", file: "rwmutex-read.yaml", dur: 200 * time.Microsecond},
	{title: "RWMutex read-locked around 100 iterations", metric: "RWMutex/WorkReadOnly", file: "rwmutex-work.yaml", dur: time.Millisecond},
	{title: "RWMutex read-locked, write-locked 1 op in 10000", metric: "RWMutex/Write10000", file: "rwmutex-write.yaml", dur: time.Millisecond},
	{title: "RWMutex around 100 iterations, writes 1 in 100000", metric: "RWMutex/WorkWrite100000", file: "rwmutex-workwrite.yaml", dur: 2 * time.Millisecond},
	{title: "one atomic counter, every P adding", metric: "Counter/atomic", file: "atomic.yaml", dur: 200 * time.Microsecond},
	{title: "a striped counter, a stripe each", metric: "Counter/striped=own", file: "striped32.yaml", dur: 200 * time.Microsecond},
	{title: "a striped counter, stripes drawn at random", metric: "Counter/striped=drawn", file: "striped.yaml", dur: 200 * time.Microsecond},
	{title: "sync.Pool, 100 Put and Get pairs", metric: "Pool/syncpool", file: "pool-perp.yaml", dur: time.Millisecond, per: 100},
	{title: "a pool behind one global mutex, 100 pairs", metric: "Pool/global", file: "pool-global.yaml", dur: 5 * time.Millisecond, per: 100},
	{title: "sync.Map, reads only", metric: "SyncMapLoad", file: "syncmap-read.yaml", dur: 500 * time.Microsecond},
	{title: "fmt.Sprintf(\"\") on sync.Pool's per-P caches", metric: "SprintfEmpty", file: "sprintf-perp.yaml", dur: 500 * time.Microsecond},
	// Measured from 2026-11-27 on (BenchmarkCounterVisits, its count of
	// adds a visit in visits.txt where primitives.txt lacks it).
	{title: "one atomic counter, its loop's bookkeeping between adds", metric: "CounterVisits/gap=0", file: "atomic.yaml", dur: 200 * time.Microsecond, newer: true},
	{title: "one atomic counter, 20 iterations of work between adds", metric: "CounterVisits/gap=20", file: "counter-gap.yaml", dur: 200 * time.Microsecond, newer: true},
	{title: "one atomic counter, 100 iterations of work between adds", metric: "CounterVisits/gap=100", file: "counter-gap100.yaml", dur: time.Millisecond, newer: true},
	{title: "one atomic counter added to twice an op", metric: "CounterVisits/pair", file: "counter-pair.yaml", dur: 200 * time.Microsecond, newer: true},
}

// readBench is each benchmark's rows in file (go test -bench output, run
// with -count): the median of its runs on each CPU count. A name with
// /workers=N is a series over workers, N its count.
func readBench(file string) map[string][]row {
	medians, err := benchtext.Medians(file, func(name string, cores int) (string, int) {
		if i := strings.Index(name, "/workers="); i >= 0 {
			cores, _ = strconv.Atoi(name[i+len("/workers="):])
			name = name[:i]
		}
		return name, cores
	})
	cmdline.Check(err)
	out := map[string][]row{}
	for name, byCores := range medians {
		for cores, med := range byCores {
			out[name] = append(out[name], row{cores, med})
		}
		slices.SortFunc(out[name], func(a, b row) int { return a.cores - b.cores })
	}
	return out
}

// lscpuField matches a line of lscpu's output.
var lscpuField = regexp.MustCompile(`(?m)^(Socket\(s\)|Core\(s\) per socket|Thread\(s\) per core):\s+(\d+)`)

// measuredHardware is the machine run.sh measured, as machine.txt (lscpu)
// describes it, with the cost of moving a line its calibration measured:
// known, as this machine is to brewput.
func measuredHardware(dir string, cal calibrate.Calibration) model.Hardware {
	text, err := os.ReadFile(filepath.Join(dir, "machine.txt"))
	cmdline.Check(err)
	var shape sim.Machine
	for _, m := range lscpuField.FindAllStringSubmatch(string(text), -1) {
		n, _ := strconv.Atoi(m[2])
		switch m[1] {
		case "Socket(s)":
			shape.Sockets = n
		case "Core(s) per socket":
			shape.CoresPerSocket = n
		case "Thread(s) per core":
			shape.ThreadsPerCore = n
		}
	}
	if shape.Sockets*shape.CoresPerSocket*shape.ThreadsPerCore == 0 {
		cmdline.Fail(fmt.Errorf("%s: no lscpu shape", filepath.Join(dir, "machine.txt")))
	}
	return model.MeasuredHardware("measured", shape, cal.Costs.Transfer,
		fmt.Sprintf("%d × %d × %d, a line moving in %s", shape.Sockets, shape.CoresPerSocket,
			shape.ThreadsPerCore, cal.Costs.Transfer.Socket))
}

// How reportMeasured prints a machine's series.
const (
	fullTables  = iota // a table a series
	summaryRows        // a row a series: its points' tally (Ln for Mn, L the caller's letter)
)

// reportMeasured writes the comparison of every measured series (those
// whose title holds only) measured on the machine of testdata/dir, and
// returns its points. On a machine of two CPUs each series has one point,
// and they make one table, Tn for Mn's benchmark; in summaryRows each
// series is one row, Ln for Mn's benchmark (L being letter), saying how
// its points fared.
func reportMeasured(w io.Writer, root, dir, letter, only string, keep bool, style int) []point {
	data := filepath.Join(root, "validation", "testdata", dir)
	here := filepath.Join(root, "validation", "published")
	cal, err := calibrate.Load(filepath.Join(data, "calibration.json"))
	cmdline.Check(err)
	hw := measuredHardware(data, cal)
	bench := readBench(filepath.Join(data, "primitives.txt"))
	// Benchmarks measured after the folder's primitives, in a file of their
	// own: only those primitives.txt lacks, no run mixed with another's.
	later := map[string]bool{}
	if _, err := os.Stat(filepath.Join(data, "visits.txt")); err == nil {
		for name, rows := range readBench(filepath.Join(data, "visits.txt")) {
			if _, ok := bench[name]; !ok {
				bench[name], later[name] = rows, true
			}
		}
	}
	fmt.Fprintf(w, "\nmeasured on %s (testdata/%s, %s),\n%s; ", cal.Host.Name, dir, cal.Date.UTC().Format("2006-01-02"), hw.About)
	fmt.Fprintf(w, "the go policy under its own calibration\n")
	twoCPUs := hw.Shape.Threads() == 2
	switch {
	case twoCPUs:
		fmt.Fprintf(w, "on 2 CPUs, Tn being Mn's benchmark\n")
		fmt.Fprintf(w, "        %9s  %9s  %-17s  %5s  %5s\n", "measured", "predicted", "band", "in", "off")
	case style == summaryRows:
		fmt.Fprintf(w, "%sn being Mn's benchmark: its points past one CPU, how many in the band\n", letter)
		fmt.Fprintf(w, "and within 2×, the worst (~ rough, ^ shared line, ! lockstep)\n")
		fmt.Fprintf(w, "        %6s  %7s  %9s  %s\n", "points", "in band", "within 2×", "worst")
	}
	// Each series' prediction simulates on its own: all side by side,
	// then written in order.
	type prediction struct {
		got  []point
		note string
		ok   bool
	}
	preds := make([]prediction, len(measuredSeries))
	var wg sync.WaitGroup
	for i, s := range measuredSeries {
		if only != "" && !strings.Contains(s.title, only) {
			continue
		}
		rows := bench[s.metric]
		if len(rows) == 0 && s.newer {
			continue // measured after this folder's run
		}
		if len(rows) == 0 {
			cmdline.Fail(fmt.Errorf("%s: no rows of %s", filepath.Join(dir, "primitives.txt"), s.metric))
		}
		s.machine = hw.Name
		if s.everyCPU {
			s.cpus = func(int) int { return hw.Shape.Threads() }
		}
		wg.Go(func() {
			got, note := predict(here, s, rows, cal, hw, keep)
			preds[i] = prediction{got, note, true}
		})
	}
	wg.Wait()
	var pts []point
	for i, s := range measuredSeries {
		if !preds[i].ok {
			continue
		}
		got, note := preds[i].got, preds[i].note
		if twoCPUs {
			for _, p := range got {
				if p.cores == 2 {
					fmt.Fprintf(w, "  T%-3d  %8.2f×  %8.2f×%s [%6.2f, %6.2f]  %5s  %4.2f×", i+1, p.published, p.predicted, p.mark(), p.lo, p.hi, p.in(), p.off)
					if later[s.metric] {
						fmt.Fprint(w, "  (visits.txt)")
					}
					fmt.Fprintln(w)
					pts = append(pts, p)
				}
			}
			continue
		}
		if style == summaryRows {
			pts = append(pts, got...)
			in, within, worst := 0, 0, got[0]
			for _, p := range got {
				if p.inBand {
					in++
				}
				if p.off <= 2 {
					within++
				}
				if p.off > worst.off {
					worst = p
				}
			}
			fmt.Fprintf(w, "  %s%-3d  %6d  %7d  %9d  %4.2f×%s on %d (%.2f×, predicted %.2f×)\n", letter, i+1, len(got), in, within,
				worst.off, worst.mark(), worst.cores, worst.published, worst.predicted)
			continue
		}
		fmt.Fprintf(w, "\nM%d. %s\n   Benchmark%s, %s\n", i+1, s.title, s.metric, s.file)
		if note != "" {
			fmt.Fprintf(w, "   %s\n", note)
		}
		printPoints(w, got, "measured")
		pts = append(pts, got...)
	}
	if twoCPUs || style == summaryRows {
		printNotes(w, pts)
	}
	return pts
}

// reportShop writes the coffee shop measured on the machine of
// testdata/dir (shop.json, brewput run) beside the model's go policy
// under the machine's own calibration: each point's throughput and
// median latency off by how much, and whether the band holds the
// throughput (within 0.5 %, the measurement's own grain at a second a
// point).
func reportShop(w io.Writer, root, dir string) {
	data := filepath.Join(root, "validation", "testdata", dir)
	cal, err := calibrate.Load(filepath.Join(data, "calibration.json"))
	cmdline.Check(err)
	hw := measuredHardware(data, cal)
	pts, err := results.ReadFiles(filepath.Join(data, "shop.json"))
	cmdline.Check(err)
	var measured []results.Point
	var cfgs []model.Config
	for _, p := range pts {
		if p.IsModel() || p.Kind != results.KindShop {
			continue
		}
		st := p.Steps()
		c := model.Config{Spec: p.Spec, Steps: coffee.Steps{Grind: st.Grind, Press: st.Press, Steam: st.Steam, Combine: st.Combine}}
		c.Policy.Sched, c.Policy.Seed = "go", 1
		c.Costs, c.Range, c.Machine = cal.Costs, cal.Range(), hw.Shape
		measured, cfgs = append(measured, p), append(cfgs, c)
	}
	res, err := model.Simulate(context.Background(), cfgs, nil)
	cmdline.Check(err)
	fmt.Fprintf(w, "\nthe coffee shop measured there (testdata/%s, brewput run, 1 s a point)\n", dir)
	fmt.Fprintf(w, "against the go policy: throughput off by, per mode and CPUs (* outside the band)\n")
	var cpus []int
	for _, p := range measured {
		if !slices.Contains(cpus, p.CPUs) {
			cpus = append(cpus, p.CPUs)
		}
	}
	slices.Sort(cpus)
	fmt.Fprintf(w, "  %-13s", "mode")
	for _, n := range cpus {
		fmt.Fprintf(w, " %7d", n)
	}
	fmt.Fprintln(w)
	var thr, p50 []float64
	in, disturbed := 0, 0
	var modes []string
	for _, p := range measured {
		if !slices.Contains(modes, p.Mode) {
			modes = append(modes, p.Mode)
		}
	}
	for _, mode := range modes {
		line := fmt.Sprintf("  %-13s", mode)
		for _, n := range cpus {
			i := slices.IndexFunc(measured, func(p results.Point) bool { return p.Mode == mode && p.CPUs == n })
			if i < 0 {
				line += fmt.Sprintf(" %7s", "")
				continue
			}
			p, r := measured[i], res[i]
			d := r.Throughput/p.Throughput - 1
			thr = append(thr, math.Abs(d))
			p50 = append(p50, math.Abs(r.Latency.P50/p.Latency.P50-1))
			mark := "*"
			if b := r.Band; b != nil && p.Throughput >= b.Throughput[0]*0.995 && p.Throughput <= b.Throughput[1]*1.005 {
				mark = " "
				in++
			}
			if p.Disturbed {
				disturbed++
			}
			line += fmt.Sprintf(" %+5.1f%%%s", 100*d, mark)
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	q := func(xs []float64) (float64, float64) {
		slices.Sort(xs)
		return 100 * results.Median(xs), 100 * xs[len(xs)-1]
	}
	tm, tw := q(thr)
	pm, pw := q(p50)
	fmt.Fprintf(w, "%d points (%d disturbed): throughput |off| median %.1f %%, worst %.1f %%;\n", len(measured), disturbed, tm, tw)
	fmt.Fprintf(w, "median latency |off| median %.1f %%, worst %.1f %%; band holds %d\n", pm, pw, in)
}
