// Command pubtables holds brewput predict past the reference curves' 16
// CPUs against published many-core tables of real code: xsync's own
// benchmarks on 64 Graviton2 cores and 32 Haswell vCPUs
// (testdata/published, the reference data's copy). The same benchmarks —
// xsync v4.5.0's own where they still hold the table's shape, else
// validation/morelibs/published_test.go's, written from the table's
// description — measured on this machine's 1 and 2 CPUs with their locks
// watched (testdata/pubtables, brewput bench --locks --format json), are
// predicted for the reference machine (its curves carried past its 16
// CPUs, curves.Carry) on each published count, and each predicted
// speed-up against its own one-CPU throughput, with its band and the
// naive guess that 2 CPUs' speed-up holds, is printed beside the
// published one; then the tallies on 4–16 CPUs and on 32–64, and by kind.
// sync.Map's rows with writes are left out: Go 1.24 replaced that map.
//
// From the measurements kept its output is the same on every run:
// docs/own-code.md quotes it and model/curves/checkedpast.go holds its
// tallies past 16 CPUs by kind (go test ./pubtables checks both; -write
// rewrites the second). -measure measures here again first.
//
//	go run ./pubtables [-write]
//	go run ./pubtables -measure [-count 3]
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	gofmt "go/format"

	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/model/forecast"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/cmdline"
	"github.com/brewput/brewput/validation/internal/tally"
)

// A series is a published table's rows of one benchmark and the
// benchmark measured here that runs the same code.
type series struct {
	table  string // which table: "Graviton2" or "Haswell"
	metric string // the CSV's metric
	bench  string // the benchmark measured here, its name without Benchmark
}

// The tables: each CSV's rows whose source holds source.
var tables = []struct{ name, source, about string }{
	{"Graviton2", "c6g.metal 64 CPU Graviton2", "xsync BENCHMARKS.md, 64-core Graviton2, Go 1.19"},
	{"Haswell", "e2-highcpu-32 32 vCPU Haswell", "xsync's charts, 32-vCPU Haswell, Go 1.16"},
}

var all = []series{
	{"Graviton2", "AtomicInt64 (atomic.AddInt64 on one int64; Load every 10000th)", "AtomicInt64"},
	{"Graviton2", "Counter (xsync striped counter, LongAdder-like)", "Counter"},
	{"Graviton2", "ChanProdConsWork100 (GOMAXPROCS/2 producer+consumer pairs, shared chan cap 1000, 100-iter work per item each side)", "PubChanProdCons/work=100"},
	{"Graviton2", "QueueProdConsWork100 (xsync MPMCQueue, same shape)", "MPMCQueueWork100"},
	{"Graviton2", "RWMutexWorkWrite100000 (RLock+100-iter loop; Lock every 100000th)", "RWMutexWorkWrite100000"},
	{"Graviton2", "RBMutexWorkWrite100000", "RBMutexWorkWrite100000"},
	{"Graviton2", "sync.Map 1000 int keys warm, 100% Load (IntegerMapStandard_WarmUp/reads=100%)", "IntMapStandard_WarmUp/reads=100%"},
	{"Graviton2", "xsync MapOf 100% Load", "MapInt_WarmUp/reads=100%"},
	{"Graviton2", "xsync MapOf 99% Load", "MapInt_WarmUp/reads=99%"},
	{"Graviton2", "xsync MapOf 75% Load", "MapInt_WarmUp/reads=75%"},
	{"Haswell", "BenchmarkRWMutexReadOnly (RLock/RUnlock, empty CS, RunParallel, 1 goroutine per P)", "PubRWMutexReadOnly"},
	{"Haswell", "BenchmarkRBMutexReadOnly (sharded reader slots, same loop)", "PubRBMutexReadOnly"},
	{"Haswell", "BenchmarkRWMutexWorkReadOnly (RLock + 100x{foo*=2;foo/=2} in CS)", "RWMutexWorkReadOnly"},
	{"Haswell", "BenchmarkRBMutexWorkReadOnly", "RBMutexWorkReadOnly"},
	{"Haswell", "BenchmarkRWMutexWrite10000 (Lock every 10000th iteration else RLock, empty CS)", "PubRWMutexWrite10000"},
	{"Haswell", "BenchmarkAtomicInt64 (counter-chart.svg)", "AtomicInt64"},
	{"Haswell", "BenchmarkCounter (counter-chart.svg)", "Counter"},
	{"Haswell", "ChanProdConsWork100 (mpmcqueue-work-chart.svg)", "PubChanProdCons/work=100"},
	{"Haswell", "ChanProdCons no work, chan cap 1000 (mpmcqueue-no-work-chart.svg)", "PubChanProdCons/work=0"},
	{"Haswell", "MPMCQueue with work (comparison)", "MPMCQueueWork100"},
	{"Haswell", "MPMCQueue no work (comparison)", "MPMCQueue"},
	{"Haswell", "xsync Map (CLHT) same workload (map-99-reads-chart.svg)", "PubMapStrings/reads=99%"},
	{"Haswell", "xsync Map (CLHT) same workload (map-90-reads-chart.svg)", "PubMapStrings/reads=90%"},
	{"Haswell", "xsync Map (CLHT) same workload (map-75-reads-chart.svg)", "PubMapStrings/reads=75%"},
}

// xsyncModule is the module whose own benchmarks are measured here, in
// the module cache (morelibs' go.mod pins it).
const xsyncModule = "github.com/puzpuzpuz/xsync/v4@v4.5.0"

// checkedPast is the least count the tallies past the reference curves
// count: past the 16 CPUs they were measured on.
const checkedPast = 17

func main() {
	measure := flag.Bool("measure", false, "measure the benchmarks here again, into testdata/pubtables, before predicting them")
	count := flag.Int("count", 3, "with -measure: runs of each benchmark on each CPU count")
	wait := flag.Duration("wait", 3*time.Minute, "with -measure: how long to wait for a quiet machine before each benchmark")
	benchtime := flag.String("benchtime", "300ms", "with -measure: a run's length (go test -benchtime)")
	write := flag.Bool("write", false, "rewrite model/curves/checkedpast.go with the tallies past 16 CPUs by kind")
	cmdline.Parse()
	if *count < 1 {
		cmdline.Bad(fmt.Errorf("-count %d: want 1 or more", *count))
	}
	root, err := filepath.Abs("..")
	cmdline.Check(err)
	if *measure {
		cmdline.Check(measureHere(root, *count, *wait, *benchtime))
	}
	r := predictAll(root)
	r.write(os.Stdout)
	if *write {
		b, err := r.checkedPast()
		cmdline.Check(err)
		cmdline.Check(os.WriteFile(filepath.Join(root, "model", "curves", "checkedpast.go"), b, 0o644))
	}
}

// measureHere builds brewput and measures each benchmark on 1 and 2 CPUs
// with its locks watched, count runs each, into testdata/pubtables, one
// after another, each when other processes have left this machine quiet
// (or after waiting wait): each file written whole or not at all.
func measureHere(root string, count int, wait time.Duration, benchtime string) error {
	tmp, err := os.MkdirTemp("", "pubtables")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "brewput")
	build := exec.Command("go", "build", "-o", bin, "./cmd/brewput")
	build.Dir, build.Stderr = root, os.Stderr
	if err := build.Run(); err != nil {
		return err
	}
	get := exec.Command("go", "mod", "download", "-json", xsyncModule)
	get.Dir, get.Stderr = filepath.Join(root, "validation", "morelibs"), os.Stderr
	out, err := get.Output()
	if err != nil {
		return err
	}
	xsyncDir := field(out, "Dir")
	if xsyncDir == "" {
		return fmt.Errorf("go mod download %s: no Dir", xsyncModule)
	}
	dir := filepath.Join(root, "validation", "testdata", "pubtables")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, m := range []struct{ dir, file string }{
		{xsyncDir, "xsync.json.gz"},
		{filepath.Join(root, "validation", "morelibs"), "published.json.gz"},
	} {
		var points []results.Point
		for _, name := range benchmarksIn(m.file) {
			others, waited, err := quiet.Wait(context.Background(), wait, 2*time.Second, results.DisturbedCPUs)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%s: others took %.2f CPUs (waited %v)\n", name, others, waited.Round(time.Second))
			top, sub, _ := strings.Cut(name, "/")
			bench := "^Benchmark" + top + "$"
			if sub != "" {
				bench += "/^" + regexp.QuoteMeta(sub) + "$"
			}
			cmd := exec.Command(bin, "bench", ".", "-bench", bench, "-cpu", "1,2", "-count", strconv.Itoa(count), "-benchtime", benchtime, "--locks", "--format", "json",
				"--out", filepath.Join(tmp, "report")) // not into the module cache's copy of xsync
			cmd.Dir, cmd.Stderr = m.dir, os.Stderr
			out, err := cmd.Output()
			if err != nil {
				return fmt.Errorf("measuring %s in %s: %v", name, m.dir, err)
			}
			f, err := results.Read(out)
			if err != nil {
				return fmt.Errorf("measuring %s: %v", name, err)
			}
			points = append(points, f.Points...)
		}
		// Gzipped: every lock of a sharded map is a record of each run
		// (1.5-1.9 MB of JSON a file).
		var b bytes.Buffer
		z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if err := results.WriteJSON(z, points); err != nil {
			return err
		}
		if err := z.Close(); err != nil {
			return err
		}
		part := filepath.Join(dir, m.file+".part")
		if err := os.WriteFile(part, b.Bytes(), 0o644); err != nil {
			return err
		}
		if err := os.Rename(part, filepath.Join(dir, m.file)); err != nil {
			return err
		}
	}
	return nil
}

// benchmarksIn are the benchmarks the series measure into file: those
// of morelibs (named Pub…) into published.json.gz, xsync's own into
// xsync.json.gz; each once.
func benchmarksIn(file string) []string {
	var out []string
	for _, s := range all {
		if strings.HasPrefix(s.bench, "Pub") == (file == "published.json.gz") && !slices.Contains(out, s.bench) {
			out = append(out, s.bench)
		}
	}
	return out
}

// field is the string value of key in go mod download -json's output.
func field(out []byte, key string) string {
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), `"`+key+`": "`); ok {
			return strings.TrimSuffix(strings.TrimSuffix(v, ","), `"`)
		}
	}
	return ""
}

// row is a series' speed-up on one published count: published, predicted
// with its band, and the naive guess.
type row struct {
	s             series
	kind          string
	cpus          int
	published     float64
	point, lo, hi float64
	naive         float64
}

// report is every row, and the series not predicted with why.
type report struct {
	rows    []row
	skipped []string
	first   string // when the first run measured here began
	missing string // the measurements here not kept, where none are
}

// predictAll predicts every series from what testdata/pubtables holds,
// for the reference machine, this machine's curves the calibration kept
// beside the reallibs measurements.
func predictAll(root string) report {
	data := filepath.Join(root, "validation", "testdata")
	cal, err := calibrate.Load(filepath.Join(data, "reallibs", "calibration.json"))
	cmdline.Check(err)
	var measured []results.Point
	var r report
	for _, f := range []string{"xsync.json.gz", "published.json.gz"} {
		path := filepath.Join(data, "pubtables", f)
		if _, err := os.Stat(path); err != nil {
			r.missing = filepath.Join("testdata", "pubtables", f)
			return r
		}
		ps, err := readGzipped(path)
		cmdline.Check(err)
		measured = append(measured, ps...)
	}
	for _, p := range measured {
		if d := p.Start.UTC().Format("2006-01-02 15:04 UTC"); r.first == "" || d < r.first {
			r.first = d
		}
	}
	t := forecast.Target{Here: cal.Curves, There: curves.Reference().Carry(256)}
	for _, s := range all {
		pub := published(filepath.Join(data, "published"), s)
		var runs []results.Point
		for _, p := range measured {
			if p.Kind == results.KindBench && strings.TrimPrefix(p.Bench.Name, "Benchmark") == s.bench {
				q := p
				q.Mode = s.bench
				runs = append(runs, q)
			}
		}
		if len(runs) == 0 {
			cmdline.Fail(fmt.Errorf("%s: not measured here (go run ./pubtables -measure)", s.bench))
		}
		var cpus []int
		for n := range pub {
			if n > 2 {
				cpus = append(cpus, n)
			}
		}
		slices.Sort(cpus)
		fc, err := forecast.Predict(forecast.Options{Name: "pubtables", Variants: []string{s.bench}, CPUs: append([]int{1, 2}, cpus...)}, runs, t)
		cmdline.Check(err)
		for _, np := range fc.NotPredicted {
			r.skipped = append(r.skipped, fmt.Sprintf("%s (%s): %s", s.bench, s.table, np.Why))
		}
		at := map[int]results.Point{}
		for _, p := range fc.Points {
			at[p.CPUs] = p
		}
		one, two := at[1], at[2]
		if one.Throughput <= 0 {
			continue
		}
		for _, n := range cpus {
			p, ok := at[n]
			if !ok {
				continue
			}
			x := row{s: s, kind: string(fc.Kinds[s.bench]), cpus: n, published: pub[1] / pub[n],
				point: p.Throughput / one.Throughput, naive: two.Throughput / one.Throughput}
			x.lo, x.hi = x.point, x.point
			if p.Band != nil {
				x.lo, x.hi = p.Band.Throughput[0]/one.Throughput, p.Band.Throughput[1]/one.Throughput
			}
			r.rows = append(r.rows, x)
		}
	}
	return r
}

// published is a series' ns/op by count, as the table has it.
func published(dir string, s series) map[int]float64 {
	f, err := os.Open(filepath.Join(dir, csvOf(s)))
	cmdline.Check(err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	cmdline.Check(err)
	source := ""
	for _, t := range tables {
		if t.name == s.table {
			source = t.source
		}
	}
	out := map[int]float64{}
	for _, rec := range recs[1:] {
		if !strings.Contains(rec[0], source) || rec[2] != s.metric || rec[4] != "ns/op" {
			continue
		}
		n, err1 := strconv.Atoi(rec[1])
		v, err2 := strconv.ParseFloat(rec[3], 64)
		if err1 == nil && err2 == nil {
			out[n] = v
		}
	}
	if out[1] == 0 {
		cmdline.Fail(fmt.Errorf("%s: no one-CPU row of %q", csvOf(s), s.metric))
	}
	return out
}

// csvOf is the file of testdata/published that holds s.
func csvOf(s series) string {
	switch {
	case strings.Contains(s.metric, "Mutex"):
		return "rwmutex_read_scaling.csv"
	case strings.Contains(s.metric, "Atomic") || strings.Contains(s.metric, "Counter"):
		return "atomic_counter_single_line_vs_striped.csv"
	case strings.Contains(s.metric, "Map"):
		return "syncmap_vs_concurrent_map_read_write_mix.csv"
	}
	return "channel_buffered_prodcons.csv"
}

// add counts row x in s.
func add(s *tally.Stats, x row) {
	s.Add(x.point, x.lo, x.hi, x.naive, x.published, fmt.Sprintf("%s on %d, %s", x.s.bench, x.cpus, x.s.table))
}

// tally is the stats of the rows on counts from lo to hi, in all and by
// kind.
func (r report) tally(lo, hi int) (tally.Stats, map[string]*tally.Stats) {
	var all tally.Stats
	byKind := map[string]*tally.Stats{}
	for _, x := range r.rows {
		if x.cpus < lo || x.cpus > hi {
			continue
		}
		if byKind[x.kind] == nil {
			byKind[x.kind] = &tally.Stats{}
		}
		add(&all, x)
		add(byKind[x.kind], x)
	}
	return all, byKind
}

// write prints every row beside the published, then the tallies.
func (r report) write(w io.Writer) {
	if r.missing != "" {
		fmt.Fprintf(w, "no measurements here kept (%s): go run ./pubtables -measure\n", r.missing)
		fmt.Fprintf(w, "measures them, on a quiet machine\n")
		return
	}
	fmt.Fprintf(w, "brewput predict past the reference curves' 16 CPUs, against published\n")
	fmt.Fprintf(w, "tables of real code (testdata/published): xsync's benchmarks, measured here\n")
	fmt.Fprintf(w, "on 1 and 2 CPUs (testdata/pubtables, from %s) and predicted\n", r.first)
	fmt.Fprintf(w, "for the reference machine; speed-ups against each one's own 1-CPU\n")
	fmt.Fprintf(w, "throughput; naive: what 2 CPUs made here, held; * outside the band\n")
	for _, t := range tables {
		fmt.Fprintf(w, "\n%s (%s)\n", t.name, t.about)
		fmt.Fprintf(w, "  %-4s %9s %7s  %-15s %6s\n", "cpus", "published", "point", "band", "naive")
		last := ""
		for _, x := range r.rows {
			if x.s.table != t.name {
				continue
			}
			if x.s.bench != last {
				fmt.Fprintf(w, "%s (%s)\n", x.s.bench, x.kind)
				last = x.s.bench
			}
			mark := " "
			if !tally.Within(x.published, x.lo, x.hi) {
				mark = "*"
			}
			fmt.Fprintf(w, "  %-4d %8.2f%s %7.2f  %-15s %6.2f\n", x.cpus, x.published, mark, x.point,
				fmt.Sprintf("[%.2f, %.2f]", x.lo, x.hi), x.naive)
		}
	}
	fmt.Fprintln(w)
	for _, s := range r.skipped {
		fmt.Fprintf(w, "not predicted: %s\n", s)
	}
	for _, span := range [][2]int{{4, 16}, {checkedPast, 64}} {
		a, byKind := r.tally(span[0], span[1])
		what := fmt.Sprintf("%d–%d CPUs", span[0], span[1])
		if span[0] == checkedPast {
			what = fmt.Sprintf("%d–%d CPUs, past the curves", 32, 64)
		}
		fmt.Fprintf(w, "On %s: %d points, %d in the band (%.0f %%, 10 %% slack), %d more than 2× off\n", what, a.Points, a.In,
			100*float64(a.In)/float64(max(a.Points, 1)), a.Off2)
		fmt.Fprintf(w, "  (the worst %.2f×, %s); the point's error ×%.2f, the naive\n", a.Worst, a.WorstAt, a.Err())
		fmt.Fprintf(w, "  guess's ×%.2f; the median band %.2f× wide.\n", a.Naive(), a.Width())
		tally.WriteKinds(w, byKind)
	}
}

// checkedPast is model/curves/checkedpast.go: the tallies past 16 CPUs by
// kind.
func (r report) checkedPast() ([]byte, error) {
	_, byKind := r.tally(checkedPast, 64)
	lo, hi := 0, 0
	for _, x := range r.rows {
		if x.cpus >= checkedPast {
			if lo == 0 || x.cpus < lo {
				lo = x.cpus
			}
			hi = max(hi, x.cpus)
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by go run ./pubtables -write (in validation/); DO NOT EDIT.\n\npackage curves\n\n" +
		"// CheckedPast is how the answers of kind k held on published tables of\n" +
		"// real code past the reference curves' CPUs, from CheckedPastFrom to\n" +
		"// CheckedPastTo: how many points its bands held, of how many, and the\n" +
		"// geometric mean of how far its points lay from them.\n" +
		"func CheckedPast(k Kind) (held, points int, err float64) {\nswitch k {\n")
	for _, k := range sortedKeys(byKind) {
		s := byKind[k]
		fmt.Fprintf(&b, "case %q:\nreturn %d, %d, %.2f\n", k, s.In, s.Points, s.Err())
	}
	fmt.Fprintf(&b, "}\nreturn 0, 0, 0\n}\n\n// CheckedPastFrom and CheckedPastTo are the least and most CPUs of the\n"+
		"// points CheckedPast counts.\nconst CheckedPastFrom, CheckedPastTo = %d, %d\n", lo, hi)
	return gofmt.Source(b.Bytes())
}

func sortedKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// readGzipped reads a gzipped results file.
func readGzipped(path string) ([]results.Point, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	file, err := results.Read(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return file.Points, nil
}
