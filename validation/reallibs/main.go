// Command reallibs holds brewput predict on code nobody here wrote against
// what 16-vCPU machines measured of the same code: the benchmarks of real
// libraries (cmd/brewput/internal/driver/testdata/reallibs: x/time/rate, go-metrics,
// concurrent-map, logrus, sync.Map; morelibs: golang-lru, go-cache, ants,
// singleflight, puddle, prometheus, zap, zerolog, bigcache, fastcache,
// gobreaker, uber's ratelimit, sync.Pool, log) and of the examples (book,
// cache), measured on this machine's 1 and 2 CPUs with their locks
// watched (testdata/reallibs, brewput bench --locks --format json), are
// predicted (brewput predict --from, this machine's calibration the one
// kept beside them, no calibration of the lendings': the reference
// curves) on 4, 8 and 16 CPUs, and each predicted speed-up against its own
// one-CPU throughput, with its band and the naive guess that 2 CPUs'
// speed-up holds, is printed beside each lending's (testdata/manycore,
// manycore2, manycore3, manycore4: libraries.txt; manycore5: trials.txt;
// manycore6: round2.txt; plain go test -bench),
// marked where the band does not hold it (10 % slack); then the totals,
// and each kind's; the same predicted with the fifth lending's own
// calibration; and each held-out set alone (morelibs' trials_test.go,
// round2_test.go), which one lending measured, twice.
//
// From the measurements kept, its output is the same on every run:
// docs/own-code.md quotes it and model/curves/checked.go holds its
// tallies by kind (go test ./reallibs checks both; -write rewrites the
// second). -measure measures here again, into -from's folder: real
// timing, which a busy machine moves; the output says how busy this one
// was.
//
//	go run ./reallibs [-bench REGEXP] [-write]
//	go run ./reallibs -measure [-count 3]
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	gofmt "go/format"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/validation/internal/benchtext"
	"github.com/brewput/brewput/validation/internal/cmdline"
	"github.com/brewput/brewput/validation/internal/tally"
)

// pkg is a package whose benchmarks the lendings measured: its folder
// from the repository's root, the benchmarks (those declared in src, a
// file of dir, where set), the file of testdata's folder its measurement
// here is kept in (gzipped where its name ends in .gz: bigcache's and
// fastcache's every shard is a lock of each run).
type pkg struct {
	dir, bench, src, file string
	// heldOut names the set its benchmarks are, where they were predicted
	// here before the one lending that measured them did: the stem of
	// that lending's files (NAME.txt, and NAME-again.txt, a second run).
	heldOut string
}

var pkgs = []pkg{
	{dir: "cmd/brewput/internal/driver/testdata/reallibs", bench: "Cmap|Logrus|Metrics|Rate|SyncMap", file: "reallibs.json"},
	{dir: "validation/morelibs", src: "morelibs_test.go", file: "morelibs.json.gz"},
	{dir: "examples/book", bench: "Book", file: "book.json"},
	{dir: "examples/cache", bench: "Cache", file: "cache.json"},
	{dir: "validation/morelibs", src: "trials_test.go", file: "trials.json.gz", heldOut: "trials"},
	{dir: "validation/morelibs", src: "round2_test.go", file: "round2.json.gz", heldOut: "round2"},
}

// benchmarks is p's -bench: its own, or those src declares.
func (p pkg) benchmarks(root string) (string, error) {
	if p.src == "" {
		return p.bench, nil
	}
	b, err := os.ReadFile(filepath.Join(root, p.dir, p.src))
	if err != nil {
		return "", err
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^func (Benchmark\w+)\(`).FindAllSubmatch(b, -1) {
		names = append(names, string(m[1]))
	}
	return "^(" + strings.Join(names, "|") + ")$", nil
}

// lendings are the folders of testdata that hold a lending's
// libraries.txt, with the letter its rows are known by elsewhere.
var lendings = []struct{ dir, letter string }{{"manycore", "M"}, {"manycore2", "L"}, {"manycore3", "N"}, {"manycore4", "P"}, {"manycore5", "Q"}, {"manycore6", "R"}}

// calibrated is the lending that measured its own calibration, contention
// curves and all: predicted for it too, as predict --calibration would.
const calibrated = "manycore5"

// counts are the CPU counts the predictions are held against.
var counts = []int{4, 8, 16}

func main() {
	bench := flag.String("bench", ".", "print only the benchmarks whose names (without Benchmark) match this")
	from := flag.String("from", "testdata/reallibs", "the folder of the measurements here (brewput bench --locks --format json) and of this machine's calibration")
	measure := flag.Bool("measure", false, "measure the benchmarks here again, into -from's folder, before predicting them")
	count := flag.Int("count", 3, "with -measure: runs of each benchmark on each CPU count")
	write := flag.Bool("write", false, "rewrite model/curves/checked.go with the tallies by kind")
	rows := flag.Bool("rows", false, "print every benchmark's predicted speed-ups beside the lendings' before the totals")
	carried := flag.Int("carried", 0, "then predict again from the reference curves cut at this many CPUs, carried past them "+
		"(curves.Carry), and tally the lending points on the counts past it")
	cmdline.Parse()
	re, err := regexp.Compile(*bench)
	if err != nil {
		cmdline.Bad(fmt.Errorf("-bench: %v", err))
	}
	if *count < 1 {
		cmdline.Bad(fmt.Errorf("-count %d: want 1 or more", *count))
	}
	dir, err := filepath.Abs(*from)
	cmdline.Check(err)
	if !*measure {
		for _, p := range append(slices.Clone(pkgs), pkg{file: "calibration.json"}) {
			if _, err := os.Stat(filepath.Join(dir, p.file)); err != nil {
				cmdline.Bad(fmt.Errorf("-from: %v (-measure measures it)", err))
			}
		}
	}
	root, err := filepath.Abs("..")
	cmdline.Check(err)
	cmdline.Check(run(root, dir, re, *measure, *count, *write, *rows, *carried))
}

// run builds brewput, measures into dir where measure says so, and
// reports; the build's folder is removed whatever fails.
func run(root, dir string, re *regexp.Regexp, measure bool, count int, write, rows bool, carried int) error {
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
		if err := calibrateHere(bin, dir); err != nil {
			return err
		}
	}
	r, err := tallies(bin, root, dir, re)
	if err != nil {
		return err
	}
	r.write(os.Stdout, rows)
	if carried > 0 {
		if err := writeCarried(os.Stdout, bin, root, dir, re, carried); err != nil {
			return err
		}
	}
	if write {
		b, err := r.checked()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, "model", "curves", "checked.go"), b, 0o644)
	}
	return nil
}

// writeCarried predicts the benchmarks again for the reference curves cut
// at cut CPUs (a calibration of them alone, as --calibration), which
// predict carries past cut, and prints the tallies of the lending points
// on the counts past it.
func writeCarried(w io.Writer, bin, root, dir string, re *regexp.Regexp, cut int) error {
	ref, err := os.ReadFile(filepath.Join(root, "model", "curves", "reference.json"))
	if err != nil {
		return err
	}
	var c struct {
		About     string            `json:"about"`
		NsPerIter float64           `json:"work_ns_per_iter"`
		Dur       int64             `json:"dur_ns"`
		Points    []json.RawMessage `json:"points"`
	}
	if err := json.Unmarshal(ref, &c); err != nil {
		return err
	}
	c.Points = slices.DeleteFunc(c.Points, func(p json.RawMessage) bool {
		var at struct {
			CPUs int `json:"cpus"`
		}
		return json.Unmarshal(p, &at) != nil || at.CPUs > cut
	})
	cal, err := json.Marshal(map[string]any{"samples": 1, "format": 1, "host": map[string]string{"name": "the reference machine"}, "curves": c})
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "reallibs-carried")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "calibration.json")
	if err := os.WriteFile(path, cal, 0o644); err != nil {
		return err
	}
	r, err := tallyDir(bin, root, dir, re, path)
	if err != nil {
		return err
	}
	r.past = cut
	all, byKind := r.totals()
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("Carried past the reference curves cut at %d CPUs: of %d lending points on more, "+
		"the bands hold %d (%.0f %%); %d lie more than 2× off, the worst %.2f× (%s); the point's error ×%.2f, the naive guess's ×%.2f; "+
		"the median band is %.2f× wide.", cut, all.Points, all.In, 100*float64(all.In)/float64(max(all.Points, 1)), all.Off2, all.Worst,
		all.WorstAt, all.Err(), all.Naive(), all.Width()), 80, ""))
	tally.WriteKinds(w, byKind)
	return nil
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
	bench, err := p.benchmarks(root)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, "bench", ".", "-bench", bench, "-cpu", "1,2", "-count", strconv.Itoa(count), "--locks", "--format", "json")
	cmd.Dir, cmd.Stderr = filepath.Join(root, p.dir), os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("measuring %s: %v", p.dir, err)
	}
	if strings.HasSuffix(p.file, ".gz") {
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		if _, err := w.Write(out); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		out = z.Bytes()
	}
	tmp := filepath.Join(dir, p.file+".part")
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, p.file))
}

// calibrateHere measures this machine's calibration, its contention
// curves with it, into dir.
func calibrateHere(bin, dir string) error {
	cmd := exec.Command(bin, "calibrate", "--out", filepath.Join(dir, "calibration.json"), "--force")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// output is what cmd prints to its standard output; what it says on its
// standard error (the benchmarks it declined, which its JSON holds too)
// is shown only where it failed.
func output(cmd *exec.Cmd) ([]byte, error) {
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = fmt.Errorf("%v: %s", err, bytes.TrimSpace(exit.Stderr))
	}
	return out, err
}

// predicted is a benchmark's predicted speed-ups against one CPU on each
// count, with their bands, what it was read as, and what 2 CPUs made here.
type predicted struct {
	name, kind string
	heldOut    string             // its pkg's
	at         map[int][3]float64 // point, low, high
	two        float64
}

// skip is a benchmark predict declined, why, and the held-out set it is
// of ("" where none).
type skip struct{ mode, reason, heldOut string }

// result is what report prints: the rows, the benchmarks not predicted,
// and how quietly the measurements here were made.
type result struct {
	rows         []predicted
	truth        map[string]map[string]map[int]float64 // lending, benchmark, cpus: speed-up against one CPU
	notPredicted []skip
	first        string
	others       float64
	hereIn       [2]int // measured points here inside their own band, of all
	// twice is, for the benchmarks also measured earlier (dir/earlier),
	// how many CPU counts past one their two predictions' bands overlap
	// at, of how many; split the benchmarks one of the two declined and
	// the other predicted; earlier is when the earlier was measured.
	twice   [2]int
	split   []string
	earlier string
	// rerun is, by held-out set, the second run of the lending that
	// measured it (NAME-again.txt: benchmark, cpus, speed-up against one
	// CPU); measuredBy that lending, by set.
	rerun      map[string]map[string]map[int]float64
	measuredBy map[string]struct{ dir, letter string }
	// own is the same predicted with a lending's own calibration.
	own *result
	// four is the answer from a lending's own 1, 2 and 4 CPUs (fromFour):
	// its tallies, of how many benchmarks of a lending, how many predicted.
	four                  tally.Stats
	fourOf, fourPredicted int
	// past, where not 0, leaves the counts up to it out of the totals.
	past int
}

// tallies tallies for the reference curves, and again for the
// calibration a lending measured of itself.
func tallies(bin, root, dir string, re *regexp.Regexp) (result, error) {
	r, err := tallyDir(bin, root, dir, re, "")
	if err != nil {
		return r, err
	}
	own, err := tallyDir(bin, root, dir, re, filepath.Join(root, "validation", "testdata", calibrated, "calibration.json"))
	r.own = &own
	if err != nil {
		return r, err
	}
	r.four, r.fourOf, r.fourPredicted, err = fromFour(bin, root, dir)
	return r, err
}

// tallyDir predicts the benchmarks measured in dir whose names match re, on
// counts, for the reference machine, this machine's curves the calibration
// kept in dir.
func tallyDir(bin, root, dir string, re *regexp.Regexp, there string) (result, error) {
	r := result{truth: map[string]map[string]map[int]float64{}, rerun: map[string]map[string]map[int]float64{},
		measuredBy: map[string]struct{ dir, letter string }{}}
	// A lending's libraries, and the held-out sets it measured (run.sh's
	// parts); a second run of one apart.
	files := []string{"libraries.txt"}
	for _, p := range pkgs {
		if p.heldOut != "" {
			files = append(files, p.heldOut+".txt", p.heldOut+"-again.txt")
		}
	}
	for _, l := range lendings {
		r.truth[l.dir] = map[string]map[int]float64{}
		for _, f := range files {
			path := filepath.Join(root, "validation", "testdata", l.dir, f)
			if !exists(path) {
				continue
			}
			m, err := speedups(path)
			if err != nil {
				return r, err
			}
			if set, ok := strings.CutSuffix(f, "-again.txt"); ok {
				r.rerun[set] = m
				continue
			}
			if set, ok := strings.CutSuffix(f, ".txt"); ok && f != "libraries.txt" {
				r.measuredBy[set] = l
			}
			maps.Copy(r.truth[l.dir], m)
		}
	}
	// This machine's calibration, as predict reads it: the user's
	// configuration folder's.
	config, err := os.MkdirTemp("", "reallibs-config")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(config)
	cal, err := os.ReadFile(filepath.Join(dir, "calibration.json"))
	if err != nil {
		return r, err
	}
	if err := os.MkdirAll(filepath.Join(config, "brewput"), 0o755); err != nil {
		return r, err
	}
	if err := os.WriteFile(filepath.Join(config, "brewput", "calibration.json"), cal, 0o644); err != nil {
		return r, err
	}
	var heres []here
	for _, p := range pkgs {
		file, err := plain(filepath.Join(dir, p.file), config)
		if err != nil {
			return r, err
		}
		h, err := readHere(file)
		if err != nil {
			return r, err
		}
		cmd := exec.Command(bin, predictArgs(file, there)...)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config, "HOME="+config)
		out, err := output(cmd)
		if err != nil {
			return r, fmt.Errorf("predicting %s: %v", file, err)
		}
		got, skipped, err := readPredicted(out)
		if err != nil {
			return r, err
		}
		for _, k := range skipped {
			if re.MatchString(k.mode) {
				k.heldOut = p.heldOut
				r.notPredicted = append(r.notPredicted, k)
			}
		}
		heres = append(heres, h)
		// Whether two measurements' bands overlap is asked of the
		// reference curves' answers alone.
		if there == "" {
			twice, split, err := r.again(bin, filepath.Join(dir, "earlier", p.file), config, got, skipped)
			if err != nil {
				return r, err
			}
			r.twice[0], r.twice[1] = r.twice[0]+twice[0], r.twice[1]+twice[1]
			r.split = append(r.split, split...)
		}
		for _, name := range sortedKeys(got) {
			if !re.MatchString(name) {
				continue
			}
			row := got[name]
			row.name, row.heldOut = name, p.heldOut
			r.rows = append(r.rows, row)
			for _, n := range []int{1, 2} {
				if p, ok := row.at[n]; ok {
					r.hereIn[1]++
					if p[1] <= p[0] && p[0] <= p[2] {
						r.hereIn[0]++
					}
				}
			}
		}
	}
	r.first, r.others = summarize(heres)
	return r, nil
}

// predictArgs are brewput's arguments to predict what file holds, for
// the machine of the calibration there (the reference curves where "").
func predictArgs(file, there string) []string {
	args := []string{"predict", "--from", file, "--cpus", "1,2,4,8,16", "--format", "json"}
	if there != "" {
		args = append(args, "--calibration", there)
	}
	return args
}

// speedups reads the go test -bench output at path: each benchmark's
// speed-up on each CPU count against its own one CPU's, from medians.
func speedups(path string) (map[string]map[int]float64, error) {
	m, err := benchtext.Medians(path, nil)
	if err != nil {
		return nil, err
	}
	s := map[string]map[int]float64{}
	for name, byCPUs := range m {
		if byCPUs[1] > 0 {
			s[name] = map[int]float64{}
			for n, ns := range byCPUs {
				s[name][n] = byCPUs[1] / ns // a parallel benchmark's ns/op is its throughput's inverse
			}
		}
	}
	return s, nil
}

// exists says whether there is a file at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// again predicts the earlier measurement at path, where there is one,
// and counts where its bands overlap now's: at how many CPU counts past
// one, of how many; split names the benchmarks one of the two declined
// (now's are declined) and the other predicted.
func (r *result) again(bin, path, config string, now map[string]predicted, declined []skip) (twice [2]int, split []string, err error) {
	if !exists(path) {
		return twice, split, nil
	}
	tmp := filepath.Join(config, "earlier") // not over now's unpacked copy
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return twice, split, err
	}
	if path, err = plain(path, tmp); err != nil {
		return twice, split, err
	}
	h, err := readHere(path)
	if err != nil {
		return twice, split, err
	}
	if r.earlier == "" || h.start.UTC().Format("2006-01-02") < r.earlier {
		r.earlier = h.start.UTC().Format("2006-01-02")
	}
	cmd := exec.Command(bin, predictArgs(path, "")...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config, "HOME="+config)
	out, err := output(cmd)
	if err != nil {
		return twice, split, fmt.Errorf("predicting %s: %v", path, err)
	}
	then, thenDeclined, err := readPredicted(out)
	if err != nil {
		return twice, split, err
	}
	for _, pair := range []struct {
		predicted map[string]predicted
		declined  []skip
	}{{now, thenDeclined}, {then, declined}} {
		for _, k := range pair.declined {
			if _, ok := pair.predicted[k.mode]; ok {
				split = append(split, k.mode)
			}
		}
	}
	for name, a := range now {
		b, ok := then[name]
		if !ok {
			continue
		}
		for _, n := range []int{2, 4, 8, 16} {
			x, ok1 := a.at[n]
			y, ok2 := b.at[n]
			if ok1 && ok2 {
				twice[1]++
				if x[1] <= y[2] && y[1] <= x[2] {
					twice[0]++
				}
			}
		}
	}
	return twice, split, nil
}

// add counts row r on n CPUs against got in s.
func add(s *tally.Stats, r predicted, n int, got float64, where string) {
	p := r.at[n]
	s.Add(p[0], p[1], p[2], r.two, got, where)
}

// totals are all rows' stats, and each kind's.
func (r result) totals() (tally.Stats, map[string]*tally.Stats) {
	var all tally.Stats
	byKind := map[string]*tally.Stats{}
	for _, row := range r.rows {
		k := byKind[row.kind]
		if k == nil {
			k = &tally.Stats{}
			byKind[row.kind] = k
		}
		for _, n := range counts {
			if _, ok := row.at[n]; !ok || n <= r.past {
				continue
			}
			for _, l := range lendings {
				got, ok := r.truth[l.dir][row.name][n]
				if !ok {
					continue
				}
				where := fmt.Sprintf("%s on %d, %s", row.name, n, l.letter)
				add(&all, row, n, got, where)
				add(k, row, n, got, where)
			}
		}
	}
	return all, byKind
}

// heldOutStats tallies the rows of one held-out set alone: against the
// lending that measured them, against its second run, and how far apart
// the two runs' speed-ups lie, either way; rows is how many were
// predicted.
func (r result) heldOutStats(set string) (first, second tally.Stats, spread []float64, rows int) {
	for _, row := range r.rows {
		if row.heldOut != set {
			continue
		}
		rows++
		for _, n := range counts {
			if _, ok := row.at[n]; !ok {
				continue
			}
			for _, l := range lendings {
				if got, ok := r.truth[l.dir][row.name][n]; ok {
					add(&first, row, n, got, "")
				}
			}
			if got, ok := r.rerun[set][row.name][n]; ok {
				add(&second, row, n, got, "")
				if a, ok := r.truth[r.measuredBy[set].dir][row.name][n]; ok {
					spread = append(spread, tally.Off(a, got))
				}
			}
		}
	}
	return first, second, spread, rows
}

// write prints the rows beside the lendings' where asked, then the totals.
func (r result) write(w io.Writer, rows bool) {
	if !rows { // docs/own-code.md quotes it: a manual, with no dates
		r.first, r.earlier = "as kept", "an earlier day"
	}
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("brewput predict on code nobody here wrote: benchmarks measured on this machine's "+
		"1 and 2 CPUs (testdata/reallibs, %s; other processes took a median of %.2f CPUs) and predicted for the reference "+
		"machine, against six 16-vCPU lendings of it (M, L, N, P, Q, R: testdata/manycore…manycore6); speed-ups against each "+
		"one's own 1-CPU throughput; naive: what 2 CPUs made here, held", r.first, r.others), 80, ""))
	fmt.Fprintln(w)
	if rows {
		r.writeRows(w)
	}
	// Benchmarks declined for one reason, its figures aside, are listed
	// together, with the reason as predict gives it for the first.
	digits := regexp.MustCompile(`[0-9.]+`)
	var groups [][]skip
	for _, k := range r.notPredicted {
		i := slices.IndexFunc(groups, func(g []skip) bool {
			return digits.ReplaceAllString(g[0].reason, "") == digits.ReplaceAllString(k.reason, "")
		})
		if i < 0 {
			groups = append(groups, nil)
			i = len(groups) - 1
		}
		groups[i] = append(groups[i], k)
	}
	for _, g := range groups {
		var names []string
		for _, k := range g {
			names = append(names, k.mode)
		}
		said := ": "
		if len(g) > 1 {
			said = "; as predict says of the first: "
		}
		fmt.Fprintln(w, format.Wrap("not predicted: "+strings.Join(names, ", ")+said+g[0].reason, 80, "  "))
	}
	all, byKind := r.totals()
	benches := len(r.rows) + len(r.notPredicted)
	mark := ""
	if rows {
		mark = "* outside the band. "
	}
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("%sOf %d benchmarks, %d predicted. Of their %d lending "+
		"points on 4, 8 and 16 CPUs, the bands hold %d (%.0f %%, 10 %% slack); %d lie more than 2× from the point, the worst %.2f× (%s); "+
		"the point's error ×%.2f (geometric mean), the naive guess's ×%.2f (%.2f times the point's); the median band is "+
		"%.2f× wide (high over low). Measured here: %d of %d points inside the model's own band. Predicted again from "+
		"the same benchmarks measured on %s (testdata/reallibs/earlier): the two bands overlap at %d of %d counts; %s.",
		mark, benches, len(r.rows), all.Points, all.In, 100*float64(all.In)/float64(max(all.Points, 1)), all.Off2, all.Worst, all.WorstAt,
		all.Err(), all.Naive(), all.Naive()/all.Err(), all.Width(), r.hereIn[0], r.hereIn[1], r.earlier, r.twice[0], r.twice[1], splitSaid(r.split)), 80, ""))
	tally.WriteKinds(w, byKind)
	if r.own != nil {
		o, byKind := r.own.totals()
		letter := ""
		for _, l := range lendings {
			if l.dir == calibrated {
				letter = l.letter
			}
		}
		fmt.Fprintln(w, format.Wrap(fmt.Sprintf("Predicted instead with lending %s's own calibration "+
			"(testdata/%s/calibration.json, as --calibration): of the same %d points the bands hold %d (%.0f %%); %d lie more than 2× off; "+
			"the point's error ×%.2f; the median band is %.2f× wide.",
			letter, calibrated, o.Points, o.In, 100*float64(o.In)/float64(max(o.Points, 1)), o.Off2, o.Err(), o.Width()), 80, ""))
		if rows { // docs/own-code.md quotes the totals without them
			tally.WriteKinds(w, byKind)
		}
	}
	for _, p := range pkgs {
		if p.heldOut == "" {
			continue
		}
		t, again, spread, rows := r.heldOutStats(p.heldOut)
		by, ok := r.measuredBy[p.heldOut]
		switch {
		case rows == 0:
			continue
		case !ok:
			fmt.Fprintln(w, format.Wrap(fmt.Sprintf("Awaiting a lending: %s/%s, %d benchmarks predicted.", filepath.Base(p.dir), p.src, rows), 80, ""))
			continue
		}
		skipped := 0
		for _, k := range r.notPredicted {
			if k.heldOut == p.heldOut {
				skipped++
			}
		}
		s := fmt.Sprintf("%s/%s alone, which only lending %s measured: %d of %d benchmarks predicted; of %d points the bands hold %d (%.0f %%); "+
			"%d lie more than 2× off; the point's error ×%.2f, the naive guess's ×%.2f.",
			filepath.Base(p.dir), p.src, by.letter, rows, rows+skipped,
			t.Points, t.In, 100*float64(t.In)/float64(max(t.Points, 1)), t.Off2, t.Err(), t.Naive())
		if len(spread) > 0 {
			slices.Sort(spread)
			s += fmt.Sprintf(" Against %s's second run of them, minutes later: %d held (%.0f %%), error ×%.2f; the two runs' "+
				"speed-ups differ by a median ×%.2f, at most ×%.2f.", by.letter,
				again.In, 100*float64(again.In)/float64(max(again.Points, 1)), again.Err(), spread[len(spread)/2], spread[len(spread)-1])
		}
		fmt.Fprintln(w, format.Wrap(s, 80, ""))
	}
	if r.fourOf > 0 {
		fmt.Fprintln(w, format.Wrap(fourSaid(r.four, r.fourOf, r.fourPredicted), 80, ""))
	}
}

// splitSaid says which benchmarks one measurement's answer declined and
// the other's predicted.
func splitSaid(split []string) string {
	if len(split) == 0 {
		return "none was declined from one and predicted from the other"
	}
	return fmt.Sprintf("%s declined from one and predicted from the other: %s", format.Count(len(split), "benchmark"), strings.Join(split, ", "))
}

// writeRows prints each benchmark's predicted speed-ups, band and the
// naive guess beside the lendings', marked where the band does not hold
// them.
func (r result) writeRows(w io.Writer) {
	fmt.Fprintf(w, "  %-4s %6s  %-13s %6s", "cpus", "point", "band", "naive")
	for _, l := range lendings {
		fmt.Fprintf(w, " %6s", l.letter)
	}
	fmt.Fprintln(w)
	for _, row := range r.rows {
		fmt.Fprintf(w, "%s (%s)\n", row.name, row.kind)
		for _, n := range counts {
			p, ok := row.at[n]
			if !ok {
				continue
			}
			fmt.Fprintf(w, "  %-4d %6.2f  %-13s %6.2f", n, p[0], fmt.Sprintf("[%.2f, %.2f]", p[1], p[2]), row.two)
			for _, l := range lendings {
				got, ok := r.truth[l.dir][row.name][n]
				if !ok {
					fmt.Fprintf(w, " %6s", "—")
					continue
				}
				mark := " "
				if !tally.Within(got, p[1], p[2]) {
					mark = "*"
				}
				fmt.Fprintf(w, " %5.2f%s", got, mark)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w)
}

// checked is model/curves/checked.go: the tallies by kind, for the
// reference curves and for a lending's own calibration.
func (r result) checked() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go run ./reallibs -write (in validation/); DO NOT EDIT.\n\npackage curves\n\n" +
		"// Checked is how the answers of kind k held on the kept many-core\n" +
		"// measurements of real code, on 4, 8 and 16 CPUs: how many points its\n" +
		"// bands held, of how many, and the geometric mean of how far its points\n" +
		"// lay from them; predicted for the reference curves, or where\n" +
		"// calibrated, with the measured machine's own calibration.\n" +
		"func Checked(k Kind, calibrated bool) (held, points int, err float64) {\n")
	cases := func(r result) {
		_, byKind := r.totals()
		b.WriteString("switch k {\n")
		for _, k := range sortedKeys(byKind) {
			s := byKind[k]
			fmt.Fprintf(&b, "case %q:\nreturn %d, %d, %.2f\n", k, s.In, s.Points, s.Err())
		}
		b.WriteString("}\nreturn 0, 0, 0\n")
	}
	if r.own != nil {
		b.WriteString("if calibrated {\n")
		cases(*r.own)
		b.WriteString("}\n")
	}
	cases(r)
	b.WriteString("}\n\n// CheckedCPUs is the most CPUs the kept measurements reach.\nconst CheckedCPUs = 16\n")
	return gofmt.Source(b.Bytes())
}

// here is what a file of measurements here says of when and how quietly
// they were made.
type here struct {
	start  time.Time
	others []float64
}

// plain is the path of the JSON kept at path: path itself, or where it
// is gzipped, a copy unpacked into tmp for predict --from.
func plain(path, tmp string) (string, error) {
	if !strings.HasSuffix(path, ".gz") {
		return path, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%v (-measure measures it)", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	out := filepath.Join(tmp, strings.TrimSuffix(filepath.Base(path), ".gz"))
	return out, os.WriteFile(out, b, 0o644)
}

// readHere reads brewput bench's JSON: the first run's start and each
// run's others_cpus.
func readHere(path string) (here, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return here{}, err
	}
	var h here
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
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

// readPredicted reads brewput predict's --format json: each benchmark's
// predicted speed-ups and bands by CPU count (its name without
// Benchmark), what it was read as, and each benchmark not predicted with
// its reason.
func readPredicted(out []byte) (map[string]predicted, []skip, error) {
	thr := map[string]map[int][3]float64{}
	kinds := map[string]string{}
	var skipped []skip
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
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
				Shape      string    `json:"shape"`
			} `json:"band"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, nil, fmt.Errorf("brewput predict's output: %v", err)
		}
		switch {
		case line.Brewput == "not_predicted":
			skipped = append(skipped, skip{mode: line.Mode, reason: line.Reason})
		case line.Source == "model" && line.Mode != "":
			p := [3]float64{line.Throughput, line.Throughput, line.Throughput}
			if b := line.Band.Throughput; len(b) == 2 {
				p[1], p[2] = b[0], b[1]
			}
			if thr[line.Mode] == nil {
				thr[line.Mode] = map[int][3]float64{}
			}
			thr[line.Mode][line.CPUs] = p
			if line.Band.Shape != "" {
				kinds[line.Mode] = line.Band.Shape
			}
		}
	}
	out2 := map[string]predicted{}
	for mode, at := range thr {
		one := at[1][0]
		if !(one > 0) {
			continue
		}
		p := predicted{kind: kinds[mode], at: map[int][3]float64{}, two: at[2][0] / one}
		for n, v := range at {
			p.at[n] = [3]float64{v[0] / one, v[1] / one, v[2] / one}
		}
		out2[mode] = p
	}
	return out2, skipped, sc.Err()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
