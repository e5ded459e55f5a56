// Command reallibs holds brewput predict on code nobody here wrote against
// what 16-vCPU machines measured of the same code: the real libraries'
// benchmarks (cmd/brewput/testdata/reallibs: x/time/rate, go-metrics,
// concurrent-map, logrus, sync.Map) and the examples' (book, cache),
// measured on this machine's 1 and 2 CPUs with their locks watched
// (testdata/reallibs, brewput bench --locks --format json), are predicted
// (brewput predict --from) on the CPU counts the lendings measured, and
// each benchmark's predicted speed-ups against its own one-CPU throughput,
// with their bands, are printed beside each lending's (testdata/manycore,
// manycore2, manycore3: libraries.txt, plain go test -bench), marked where
// the band does not hold them (10 % slack), then the tallies.
//
// From the measurements kept, its output is the same on every run, and
// docs/model.md quotes it (go test ./reallibs checks the quote). -measure
// measures them here again, into -from's folder: real timing, which a busy
// machine moves; the output says how busy this one was.
//
//	go run ./reallibs [-bench REGEXP] [-calibration FILE]
//	go run ./reallibs -measure [-count 3]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/validation/internal/benchtext"
	"github.com/brewput/brewput/validation/internal/cmdline"
)

// pkg is a package whose benchmarks the lendings measured: its folder
// from the repository's root, the benchmarks, and the file of testdata's
// folder its measurement here is kept in.
type pkg struct{ dir, bench, file string }

var pkgs = []pkg{
	{"cmd/brewput/testdata/reallibs", "Cmap|Logrus|Metrics|Rate|SyncMap", "reallibs.json"},
	{"examples/book", "Book", "book.json"},
	{"examples/cache", "Cache", "cache.json"},
}

// lendings are the folders of testdata that hold a lending's
// libraries.txt, with the letter its rows are known by elsewhere.
var lendings = []struct{ dir, letter string }{{"manycore", "M"}, {"manycore2", "L"}, {"manycore3", "N"}}

// slack is how far outside its band a measured speed-up may lie and still
// count as held, as in go run ./published.
const slack = 0.10

func main() {
	bench := flag.String("bench", ".", "print only the benchmarks whose names (without Benchmark) match this")
	from := flag.String("from", "testdata/reallibs", "the folder of the measurements here (brewput bench --locks --format json)")
	measure := flag.Bool("measure", false, "measure the benchmarks here again, into -from's folder, before predicting them")
	count := flag.Int("count", 3, "with -measure: runs of each benchmark on each CPU count")
	calibration := flag.String("calibration", "testdata/calibration.json", "the go policy's costs")
	cmdline.Parse()
	re, err := regexp.Compile(*bench)
	if err != nil {
		cmdline.Bad(fmt.Errorf("-bench: %v", err))
	}
	if *count < 1 {
		cmdline.Bad(fmt.Errorf("-count %d: want 1 or more", *count))
	}
	cal, err := filepath.Abs(*calibration)
	cmdline.Check(err)
	if _, err := os.Stat(cal); err != nil {
		cmdline.Bad(fmt.Errorf("-calibration: %v", err))
	}
	dir, err := filepath.Abs(*from)
	cmdline.Check(err)
	if !*measure {
		for _, p := range pkgs {
			if _, err := os.Stat(filepath.Join(dir, p.file)); err != nil {
				cmdline.Bad(fmt.Errorf("-from: %v (-measure measures it)", err))
			}
		}
	}
	root, err := filepath.Abs("..")
	cmdline.Check(err)
	cmdline.Check(run(root, dir, cal, re, *measure, *count))
}

// run builds brewput, measures into dir where measure says so, and
// reports; the build's folder is removed whatever fails.
func run(root, dir, cal string, re *regexp.Regexp, measure bool, count int) error {
	bin, done, err := build(root)
	if err != nil {
		return err
	}
	defer done()
	if measure {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, p := range pkgs {
			if err := measureHere(bin, root, dir, p, count); err != nil {
				return err
			}
		}
	}
	return report(os.Stdout, bin, root, dir, cal, re)
}

// build builds brewput from the repository at root into a folder of its
// own, which done removes.
func build(root string) (bin string, done func(), err error) {
	tmp, err := os.MkdirTemp("", "reallibs")
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(tmp, "brewput")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/brewput")
	cmd.Dir, cmd.Stderr = root, os.Stderr
	if err := cmd.Run(); err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	return bin, func() { os.RemoveAll(tmp) }, nil
}

// measureHere measures p's benchmarks on 1 and 2 CPUs with their locks
// watched, count runs each, into dir: the file is written whole or not
// at all.
func measureHere(bin, root, dir string, p pkg, count int) error {
	cmd := exec.Command(bin, "bench", ".", "-bench", p.bench, "-cpu", "1,2", "-count", strconv.Itoa(count), "--locks", "--format", "json")
	cmd.Dir, cmd.Stderr = filepath.Join(root, p.dir), os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("measuring %s: %v", p.dir, err)
	}
	tmp := filepath.Join(dir, p.file+".part")
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, p.file))
}

// report predicts the benchmarks measured in dir whose names match re, on
// the lendings' CPU counts, and writes them beside the lendings'.
func report(w io.Writer, bin, root, dir, cal string, re *regexp.Regexp) error {
	measured := map[string]map[string]map[int]float64{} // lending, benchmark, cpus: ns/op
	var counts []int
	for _, l := range lendings {
		m, err := benchtext.Medians(filepath.Join(root, "validation", "testdata", l.dir, "libraries.txt"), nil)
		if err != nil {
			return err
		}
		measured[l.dir] = m
		for _, byCPUs := range m {
			for n := range byCPUs {
				if !slices.Contains(counts, n) {
					counts = append(counts, n)
				}
			}
		}
	}
	sort.Ints(counts)
	cpus := strings.Trim(strings.ReplaceAll(fmt.Sprint(counts), " ", ","), "[]")
	var rows []row
	var notPredicted []string
	var here []here
	for _, p := range pkgs {
		file := filepath.Join(dir, p.file)
		h, err := readHere(file)
		if err != nil {
			return err
		}
		here = append(here, h)
		cmd := exec.Command(bin, "predict", "--from", file, "--cpus", cpus, "--calibration", cal, "--format", "json")
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("predicting %s: %v", file, err)
		}
		got, skipped, err := readPredicted(out)
		if err != nil {
			return err
		}
		notPredicted = append(notPredicted, skipped...)
		for _, name := range sortedKeys(got) {
			if re.MatchString(name) {
				rows = append(rows, row{name: name, predicted: got[name]})
			}
		}
	}
	first, others := summarize(here)
	kept := dir
	if rel, err := filepath.Rel(filepath.Join(root, "validation"), dir); err == nil && !strings.HasPrefix(rel, "..") {
		kept = rel
	}
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("brewput predict on code nobody here wrote: its benchmarks measured on this machine's "+
		"1 and 2 CPUs (%s, %s; other processes took a median of %.2f CPUs) and predicted past them, "+
		"against three 16-vCPU lendings (M, L, N: testdata/manycore, manycore2, manycore3); speed-ups against each "+
		"one's own 1-CPU throughput", kept, first, others), 80, ""))
	fmt.Fprintln(w)
	var points, in, within int
	worst, worstAt := 1.0, ""
	for _, r := range rows {
		fmt.Fprintln(w, r.name)
		fmt.Fprintf(w, "  %5s  %9s  %-17s", "cpus", "predicted", "band")
		for _, l := range lendings {
			fmt.Fprintf(w, "  %6s", l.letter)
		}
		fmt.Fprintln(w)
		one := r.predicted[1]
		for _, n := range counts {
			p, ok := r.predicted[n]
			if n == 1 || !ok || one.thr <= 0 {
				continue
			}
			pt, lo, hi := p.thr/one.thr, p.lo/one.thr, p.hi/one.thr
			fmt.Fprintf(w, "  %5d  %8.2f×  [%6.2f, %6.2f]", n, pt, lo, hi)
			for _, l := range lendings {
				m := measured[l.dir][r.name]
				if m[1] == 0 || m[n] == 0 {
					fmt.Fprintf(w, "  %6s", "—")
					continue
				}
				got := m[1] / m[n] // a parallel benchmark's ns/op is its throughput's inverse
				points++
				mark := " "
				if got >= lo*(1-slack) && got <= hi*(1+slack) {
					in++
				} else {
					mark = "*"
				}
				off := math.Max(got/pt, pt/got)
				if off <= 2 {
					within++
				}
				if off > worst {
					worst, worstAt = off, fmt.Sprintf("%s on %d, %s", r.name, n, l.letter)
				}
				fmt.Fprintf(w, "  %5.2f%s", got, mark)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
	for _, s := range notPredicted {
		fmt.Fprintln(w, format.Wrap("not predicted: "+s, 80, "  "))
	}
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("* outside the band (10 %% slack). Of %d lending points past one CPU, the bands "+
		"hold %d (%.0f %%); %d lie within 2× of the point; the worst is %.2f× off (%s)",
		points, in, 100*float64(in)/float64(max(points, 1)), within, worst, worstAt), 80, ""))
	return nil
}

// here is what a file of measurements here says of when and how quietly
// they were made.
type here struct {
	start  time.Time
	others []float64
}

// readHere reads brewput bench's JSON: the first run's start and each
// run's others_cpus.
func readHere(path string) (here, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return here{}, fmt.Errorf("%v (-measure measures it)", err)
	}
	var h here
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Source string    `json:"source"`
			Start  time.Time `json:"start"`
			Trust  struct {
				Others float64 `json:"others_cpus"`
			} `json:"trust"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return here{}, fmt.Errorf("%s: %v", path, err)
		}
		if line.Source != "measured" {
			continue
		}
		if h.start.IsZero() || line.Start.Before(h.start) {
			h.start = line.Start
		}
		h.others = append(h.others, line.Trust.Others)
	}
	return h, sc.Err()
}

// summarize is when the first run of hs began, and the median of their
// runs' others_cpus.
func summarize(hs []here) (string, float64) {
	var first time.Time
	var others []float64
	for _, h := range hs {
		if first.IsZero() || h.start.Before(first) {
			first = h.start
		}
		others = append(others, h.others...)
	}
	if len(others) == 0 {
		return first.UTC().Format("2006-01-02 15:04 UTC"), 0
	}
	sort.Float64s(others)
	return first.UTC().Format("2006-01-02 15:04 UTC"), others[len(others)/2]
}

// row is one benchmark's predicted points, by CPU count.
type row struct {
	name      string
	predicted map[int]point
}

// point is a predicted throughput and its band.
type point struct{ thr, lo, hi float64 }

// readPredicted reads brewput predict's --format json: each model point's
// throughput and band by benchmark (its name without Benchmark) and CPU
// count, and each benchmark not predicted with its reason.
func readPredicted(out []byte) (map[string]map[int]point, []string, error) {
	got := map[string]map[int]point{}
	var skipped []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Brewput    string  `json:"brewput"`
			Reason     string  `json:"reason"`
			Source     string  `json:"source"`
			Mode       string  `json:"mode"`
			CPUs       int     `json:"cpus"`
			Throughput float64 `json:"throughput"`
			Band       struct {
				Throughput []float64 `json:"throughput"`
			} `json:"band"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, nil, fmt.Errorf("brewput predict's output: %v", err)
		}
		switch {
		case line.Brewput == "not_predicted":
			skipped = append(skipped, line.Mode+": "+line.Reason)
		case line.Source == "model" && line.Mode != "":
			p := point{thr: line.Throughput, lo: line.Throughput, hi: line.Throughput}
			if b := line.Band.Throughput; len(b) == 2 {
				p.lo, p.hi = b[0], b[1]
			}
			if got[line.Mode] == nil {
				got[line.Mode] = map[int]point{}
			}
			got[line.Mode][line.CPUs] = p
		}
	}
	return got, skipped, sc.Err()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
