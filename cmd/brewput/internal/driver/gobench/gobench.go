// Package gobench measures a user's Go benchmarks as brewput measures the
// shop: each package's test binary, built once, runs per CPU count in a
// child pinned to that many CPUs, and every benchmark line becomes a point.
package gobench

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/bench"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/lockwatch"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// Config says which benchmarks to run and how, as go test's flags do.
type Config struct {
	Dir      string   // where the go command runs; "" is the current folder
	Packages []string // go list patterns; none means "."
	Bench    string   // -bench; "" means "."
	Run      string   // -run; "" means "^$"
	CPUs     []int
	// Within are the ids of the CPUs a run on n CPUs is pinned to the
	// first n of; none: those this process may run on.
	Within    []int
	Count     int    // -count; 0 means 1
	Benchtime string // -benchtime ("2s", "1000x")
	// BuildFlags go to go test -c, TestFlags to the test binary (SplitFlags).
	BuildFlags, TestFlags []string
	// Locks gives each point the lock sites its run took (lockwatch's
	// overlay); Stretch is the experiment every run makes (StretchEnv's
	// value, "" for none); Unwatched also runs the packages built plain.
	Locks     bool
	Stretch   string
	Unwatched bool
	Log       io.Writer // hears of each package and benchmark result
	// Retry, allowing more than one attempt, measures again, alone, a
	// benchmark too disturbed on a CPU count (results.TooDisturbed).
	Retry sweep.Retry
}

// Validate checks cfg before anything is built.
func (cfg Config) Validate() error {
	if _, err := regexp.Compile(cfg.bench()); err != nil {
		return fmt.Errorf("bench %q: not a regular expression: %w", cfg.Bench, err)
	}
	if _, err := regexp.Compile(cfg.Run); err != nil {
		return fmt.Errorf("run %q: not a regular expression: %w", cfg.Run, err)
	}
	if len(cfg.CPUs) == 0 {
		return errors.New("cpus: want at least one CPU count")
	}
	if cfg.Locks && slices.ContainsFunc(cfg.BuildFlags, func(f string) bool { return strings.HasPrefix(strings.TrimLeft(f, "-"), "overlay") }) {
		return errors.New("overlay: watching the locks builds with an overlay of its own; leave -overlay out")
	}
	for _, n := range cfg.CPUs {
		if n < 1 {
			return fmt.Errorf("cpus: %d; want at least 1", n)
		}
	}
	if cfg.Count < 0 {
		return fmt.Errorf("count %d: want 1 or more runs of each benchmark", cfg.Count)
	}
	if _, err := sweep.PinTo(slices.Max(cfg.CPUs), cfg.Within); err != nil {
		return fmt.Errorf("cpus %d: %w", slices.Max(cfg.CPUs), err)
	}
	return checkBenchtime(cfg.Benchtime)
}

// checkBenchtime checks a benchtime as go test reads it.
func checkBenchtime(s string) error {
	if s == "" {
		return nil
	}
	if n, ok := strings.CutSuffix(s, "x"); ok {
		if i, err := strconv.Atoi(n); err == nil && i > 0 && strconv.Itoa(i) == n {
			return nil
		}
	} else if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return nil
	}
	return fmt.Errorf("benchtime %q: want a duration such as 500ms or a number of iterations such as 1000x", s)
}

// FixedCountNote warns that on several CPUs a fixed number of iterations
// makes b.RunParallel's workers contend for one counter (golang/go#37996);
// "" where the run is timed or on one CPU.
func (cfg Config) FixedCountNote() string {
	n, ok := strings.CutSuffix(cfg.Benchtime, "x")
	if !ok || n == "1" || len(cfg.CPUs) == 0 || slices.Max(cfg.CPUs) < 2 {
		return ""
	}
	return text.FixedCount(cfg.Benchtime)
}

func (cfg Config) bench() string { return cmp.Or(cfg.Bench, ".") }

func (cfg Config) count() int { return max(cfg.Count, 1) }

func (cfg Config) goCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = cfg.Dir
	return cmd
}

// Result is what Run measured.
type Result struct {
	Points    []results.Point // by package, benchmark, CPU count and repetition
	Failures  []Failure
	Unwatched []results.Point // the runs without the overlay (Config.Unwatched)
}

// Failure is a benchmark that failed, or a test binary that stopped
// (Bench ""), at one CPU count.
type Failure struct {
	Pkg, Bench, Output string
	CPUs               int
}

func (f Failure) Error() string {
	return fmt.Sprintf("%s failed on %s: %s", cmp.Or(f.Bench, f.Pkg), format.Count(f.CPUs, "CPU"), strings.TrimSpace(f.Output))
}

// BuildError is a package whose test binary could not be built.
type BuildError struct {
	Pkg    string
	Output string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("build %s: %s", e.Pkg, strings.TrimSpace(e.Output))
}

// NoMatchError is a Bench expression that matched no benchmark.
type NoMatchError struct {
	Bench    string
	Packages []string
}

func (e *NoMatchError) Error() string {
	if e.Bench == "." {
		return fmt.Sprintf("no benchmark in %s (its test files have no func BenchmarkXxx)", strings.Join(e.Packages, ", "))
	}
	return fmt.Sprintf("no benchmark matches %q in %s", e.Bench, strings.Join(e.Packages, ", "))
}

// PackageError is a package pattern the go command cannot list.
type PackageError struct {
	Pattern string
	Output  string
}

func (e *PackageError) Error() string {
	return fmt.Sprintf("packages %s: %s", e.Pattern, strings.TrimSpace(e.Output))
}

// pkg is a package with tests, built.
type pkg struct {
	path, dir, binary string
	plain             string // built without the overlay (Config.Unwatched)
}

// Run builds every package's test binary, then runs each on every CPU
// count in turn; cancelled, it returns what it measured with ctx's error.
func Run(ctx context.Context, cfg Config) (Result, error) {
	b, err := Build(ctx, cfg)
	if err != nil {
		return Result{}, err
	}
	defer b.Close()
	return b.Run(ctx)
}

// Run runs the built benchmarks as Config says.
func (b *Built) Run(ctx context.Context) (Result, error) {
	cfg := b.cfg
	if !(cfg.Locks && cfg.Unwatched) {
		return b.runPasses(ctx)
	}
	var res Result
	for i, n := range cfg.CPUs {
		one, err := b.runCompared(ctx, n)
		res.Unwatched = append(res.Unwatched, one.Unwatched...)
		res.Points = append(res.Points, one.Points...)
		res.Failures = append(res.Failures, one.Failures...)
		if err != nil {
			return sorted(res), err
		}
		if i == 0 && len(one.Points)+len(one.Failures) == 0 {
			return res, &NoMatchError{Bench: cfg.bench(), Packages: b.paths()}
		}
	}
	return sorted(res), nil
}

// Again runs each benchmark named (as a point's Mode: its name without
// Benchmark) count more times, alone, on one CPU and on the count named,
// in turn: predict's reading of its kind was undecided.
func (b *Built) Again(ctx context.Context, modes map[string]int, count int) (Result, error) {
	var res Result
	for _, mode := range slices.Sorted(maps.Keys(modes)) {
		cfg := b.cfg
		cfg.Bench, cfg.Count = exactly("Benchmark"+mode), 1
		for range count {
			for _, n := range []int{1, modes[mode]} {
				if err := b.runEach(ctx, cfg, n, false, &res); err != nil {
					return sorted(res), err
				}
			}
		}
	}
	res.Failures = onceEach(res.Failures)
	return sorted(res), nil
}

// runPasses runs -count passes over every CPU count, a run of each
// benchmark each, so that a benchmark's repeats lie apart in time and
// their spread holds the machine's drift. A failure is told once.
func (b *Built) runPasses(ctx context.Context) (Result, error) {
	one := b.cfg
	one.Count = 1
	by := map[int]*Result{}
	for _, n := range b.cfg.CPUs {
		by[n] = &Result{}
	}
	var err error
	for rep := 0; rep < b.cfg.count() && err == nil; rep++ {
		for i, n := range b.cfg.CPUs {
			if err = b.runEach(ctx, one, n, false, by[n]); err != nil {
				break
			}
			if rep == 0 && i == 0 && len(by[n].Points)+len(by[n].Failures) == 0 {
				return Result{}, &NoMatchError{Bench: b.cfg.bench(), Packages: b.paths()}
			}
		}
	}
	var res Result
	for _, n := range b.cfg.CPUs {
		results.NumberReps(by[n].Points)
		if err == nil && b.cfg.Retry.Attempts > 1 {
			err = b.quieten(ctx, n, by[n])
		}
		res.Points = append(res.Points, by[n].Points...)
		res.Failures = append(res.Failures, by[n].Failures...)
	}
	res.Failures = onceEach(res.Failures)
	return sorted(res), err
}

// onceEach is failures with each benchmark's on a CPU count told once.
func onceEach(failures []Failure) []Failure {
	type failed struct {
		pkg, bench string
		cpus       int
	}
	told := map[failed]bool{}
	return slices.DeleteFunc(failures, func(f Failure) bool {
		k := failed{f.Pkg, f.Bench, f.CPUs}
		was := told[k]
		told[k] = true
		return was
	})
}

// Built is the test binaries of a Config's packages, built once.
type Built struct {
	cfg  Config
	tmp  string
	pkgs []pkg
	host results.Host
	seen map[string]string // the stretch target of every lock group its runs took, by name
}

// Build checks cfg and builds its packages' test binaries.
func Build(ctx context.Context, cfg Config) (*Built, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if note := cfg.FixedCountNote(); note != "" {
		cfg.log(note)
	}
	atomicfile.RemoveStale(os.TempDir(), "brewput-bench-", "") // left by a run killed outright
	tmp, err := os.MkdirTemp("", atomicfile.TempPattern("brewput-bench-", ""))
	if err != nil {
		return nil, err
	}
	pkgs, err := build(ctx, cfg, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	h := host.Detect()
	h.GoVersion = cmp.Or(goEnv(ctx, cfg, "GOVERSION"), h.GoVersion) // the user's toolchain's
	return &Built{cfg: cfg, tmp: tmp, pkgs: pkgs, host: h, seen: map[string]string{}}, nil
}

// Close removes the test binaries.
func (b *Built) Close() { os.RemoveAll(b.tmp) }

// RunStretched runs every package's benchmarks on n CPUs with the lock
// watch's experiment stretch (lockwatch.StretchEnv's value; "" for none).
func (b *Built) RunStretched(ctx context.Context, n int, stretch string) (Result, error) {
	cfg := b.cfg
	cfg.Stretch = stretch
	var res Result
	err := b.runEach(ctx, cfg, n, false, &res)
	return res, err
}

// quieten measures again, alone, as b.cfg.Retry says, each benchmark of
// res too disturbed on n CPUs, until it is not or a run stays disturbed
// through its attempts (the next would be too).
func (b *Built) quieten(ctx context.Context, n int, res *Result) error {
	type bench struct{ pkg, name string }
	var names []bench
	for _, p := range res.Points {
		if k := (bench{p.Bench.Pkg, p.Bench.Name}); !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	for _, k := range names {
		of := func(p results.Point) bool { return p.Bench.Pkg == k.pkg && p.Bench.Name == k.name }
		for {
			runs := slices.DeleteFunc(slices.Clone(res.Points), func(p results.Point) bool { return !of(p) })
			disturbed, too := results.TooDisturbed(runs)
			if !too {
				break
			}
			b.cfg.log(text.BenchDisturbed(k.name, n, disturbed, len(runs)))
			cfg := b.cfg
			cfg.Bench, cfg.Count = exactly(k.name), 1
			p, err := sweep.Quietly(ctx, cfg.Retry, func(ctx context.Context) (results.Point, error) {
				var one Result
				if err := b.runEach(ctx, cfg, n, false, &one); err != nil {
					return results.Point{}, err
				}
				if i := slices.IndexFunc(one.Points, of); i >= 0 {
					return one.Points[i], nil
				}
				return results.Point{}, errNoResult
			}, func(p results.Point, attempt int, waited time.Duration, _ bool) {
				b.cfg.log("  " + text.BenchMeasuredAgain(p, waited, attempt+1, cfg.Retry.Attempts))
			})
			if errors.Is(err, errNoResult) {
				break // its failure was told, or the next run would fail alike
			}
			if err != nil {
				return err
			}
			p.Rep = len(runs) + 1
			res.Points = append(res.Points, p)
			if p.IsDisturbed() {
				break
			}
		}
	}
	return nil
}

var errNoResult = errors.New("measured again, it made no result")

// exactly is the -bench pattern that matches the benchmark named name
// alone, level by level as go test matches.
func exactly(name string) string {
	parts := strings.Split(name, "/")
	for i, part := range parts {
		parts[i] = "^" + regexp.QuoteMeta(part) + "$"
	}
	return strings.Join(parts, "/")
}

// runCompared runs every package's benchmarks on n CPUs watched and
// unwatched in turn, -count times, the order alternating, so that a
// neighbour busy for a while slows both alike. A failure is told once.
func (b *Built) runCompared(ctx context.Context, n int) (Result, error) {
	watched, plain := b.cfg, b.cfg
	watched.Count, watched.Stretch = 1, ""
	plain.Count, plain.Locks, plain.Stretch = 1, false, ""
	var res, unwatched Result
	var err error
	for rep := 0; rep < b.cfg.count() && err == nil; rep++ {
		for k := 0; k < 2 && err == nil; k++ {
			if (rep+k)%2 == 0 {
				err = b.runEach(ctx, watched, n, false, &res)
			} else {
				err = b.runEach(ctx, plain, n, true, &unwatched)
			}
		}
	}
	results.NumberReps(res.Points)
	results.NumberReps(unwatched.Points)
	res.Unwatched = unwatched.Points
	res.Failures = onceEach(append(res.Failures, unwatched.Failures...))
	return res, err
}

// runEach runs every package's benchmarks (plain: their plain binaries).
func (b *Built) runEach(ctx context.Context, cfg Config, n int, plain bool, res *Result) error {
	for _, p := range b.pkgs {
		if plain {
			p.binary = p.plain
		}
		points, failures, err := runOne(ctx, cfg, p, n, b.tmp, b.seen)
		for j := range points {
			points[j].Host = b.host
		}
		res.Points = append(res.Points, points...)
		res.Failures = append(res.Failures, failures...)
		if err != nil {
			return err
		}
	}
	return nil
}

// sorted orders the points by package, benchmark as first run, CPUs, rep.
func sorted(res Result) Result {
	key := func(p results.Point) string { return p.Bench.Pkg + " " + p.Bench.Name }
	rank := map[string]int{}
	for _, p := range res.Points {
		if _, ok := rank[key(p)]; !ok {
			rank[key(p)] = len(rank)
		}
	}
	slices.SortStableFunc(res.Points, func(a, b results.Point) int {
		return cmp.Or(rank[key(a)]-rank[key(b)], a.CPUs-b.CPUs, a.Rep-b.Rep)
	})
	return res
}

// listed is what go list says of a package.
type listed struct {
	ImportPath, Dir                    string
	GoFiles, TestGoFiles, XTestGoFiles []string
	Error                              *struct{ Err string }
}

// list lists cfg's packages that have tests, refusing none.
func list(ctx context.Context, cfg Config) ([]listed, error) {
	patterns := cfg.Packages
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	var stdout, stderr bytes.Buffer
	cmd := cfg.goCommand(ctx, append([]string{"list", "-e", "-json"}, patterns...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		out := strings.TrimSpace(stderr.String())
		if strings.Contains(out, "go.mod file not found") {
			// Outside a module: say so, and what to do, not go's exit status.
			out = "not inside a Go module (no go.mod here or above); run brewput bench from your module's folder, or give its packages, such as ./..."
		}
		return nil, &PackageError{Pattern: strings.Join(patterns, " "), Output: cmp.Or(out, err.Error())}
	}
	var pkgs []listed
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var l listed
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("read go list's output: %w", err)
		}
		files := len(l.GoFiles) + len(l.TestGoFiles) + len(l.XTestGoFiles)
		switch {
		case l.Error != nil && (l.Dir == "" || files == 0):
			return nil, &PackageError{Pattern: l.ImportPath, Output: cliflag.PackageHint(cfg.Dir, l.ImportPath, l.Error.Err)}
		case l.Error != nil:
			return nil, &BuildError{Pkg: l.ImportPath, Output: l.Error.Err}
		case len(l.TestGoFiles)+len(l.XTestGoFiles) == 0:
			cfg.log(text.NoTestFiles(l.ImportPath))
			continue
		}
		pkgs = append(pkgs, l)
	}
	if len(pkgs) == 0 {
		if warn := strings.TrimSpace(stderr.String()); warn != "" {
			return nil, &PackageError{Pattern: strings.Join(patterns, " "), Output: warn}
		}
		return nil, &NoMatchError{Bench: cfg.bench(), Packages: patterns}
	}
	return pkgs, nil
}

func build(ctx context.Context, cfg Config, tmp string) ([]pkg, error) {
	listedPkgs, err := list(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var overlay []string
	if cfg.Locks {
		goroot := goEnv(ctx, cfg, "GOROOT")
		if goroot == "" {
			return nil, &lockwatch.CannotWatch{Err: errors.New("go env GOROOT says nothing")}
		}
		dir := filepath.Join(tmp, "lockwatch")
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		path, err := lockwatch.Overlay(goroot, dir)
		if err != nil {
			return nil, err
		}
		overlay = []string{"-overlay", path}
	}
	var pkgs []pkg
	for i, l := range listedPkgs {
		p := pkg{path: l.ImportPath, dir: l.Dir, binary: filepath.Join(tmp, fmt.Sprintf("pkg%d.test", i))}
		cfg.log(text.BenchBuilding(p.path))
		if err := buildTest(ctx, cfg, p.path, p.binary, overlay); err != nil {
			return nil, err
		}
		if cfg.Locks && cfg.Unwatched {
			p.plain = filepath.Join(tmp, fmt.Sprintf("pkg%d.plain.test", i))
			if err := buildTest(ctx, cfg, p.path, p.plain, nil); err != nil {
				return nil, err
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// buildTest builds the test binary of path into out, with overlay's flags.
func buildTest(ctx context.Context, cfg Config, path, out string, overlay []string) error {
	args := slices.Concat([]string{"test", "-c", "-o", out}, overlay, cfg.BuildFlags, []string{path})
	msg, err := cfg.goCommand(ctx, args...).CombinedOutput()
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return &BuildError{Pkg: path, Output: string(msg)}
	}
	if _, err := os.Stat(out); err != nil {
		return &BuildError{Pkg: path, Output: "go test -c wrote no test binary: " + string(msg)}
	}
	return nil
}

// goEnv is one of the go command's settings, "" where it cannot be told.
func goEnv(ctx context.Context, cfg Config, key string) string {
	out, err := cfg.goCommand(ctx, "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// runOne runs p's test binary on n CPUs, in its folder as go test does.
func runOne(ctx context.Context, cfg Config, p pkg, n int, tmp string, targets map[string]string) ([]results.Point, []Failure, error) {
	hist := filepath.Join(tmp, fmt.Sprintf("%s-%dcpu.hist", filepath.Base(p.binary), n))
	locks := filepath.Join(tmp, fmt.Sprintf("%s-%dcpu.locks", filepath.Base(p.binary), n))
	os.Remove(locks) // an earlier run's of the same binary
	args, timeout := testArgs(cfg, n)
	parent := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout+time.Minute)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, p.binary, args...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", n), bench.HistEnv+"="+hist)
	if cfg.Locks {
		cmd.Env = append(cmd.Env, lockwatch.Env+"="+locks)
		if cfg.Stretch != "" {
			cmd.Env = append(cmd.Env, lockwatch.StretchEnv+"="+cfg.Stretch)
		}
	}
	sweep.OwnGroup(cmd) // as sweep's children: a ^C reaches brewput, which stops the child
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	pinned, err := sweep.PinTo(n, cfg.Within)
	cfg.log(text.BenchRunning(p.path, n, sweep.FormatCPUs(pinned)))
	// Only another process on the child's own CPUs disturbs it.
	sw := sweep.StartStopwatchOn(quiet.Of(pinned))
	if err == nil {
		err = sweep.StartOn(cmd, pinned)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s on %d CPUs: start: %w", p.path, n, err)
	}
	var output bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			output.WriteString(line + "\n")
			if strings.HasPrefix(line, "Benchmark") || strings.HasPrefix(line, "--- FAIL") {
				cfg.log("  " + strings.Join(strings.Fields(line), " "))
			}
		}
		io.Copy(io.Discard, pr) // a line too long for the scanner: drain the rest
	}()
	waitErr := cmd.Wait()
	window := sw.Stop() // the child, now waited for, counts as brewput's own
	pw.Close()
	<-done
	points, failures := parse(output.String(), p, n, sw.Start())
	// The binary reports no window of its own: each point gets what
	// others took during the whole run.
	for i := range points {
		points[i].CPUSet = sweep.FormatCPUs(pinned)
		window.Others.Mark(&points[i])
	}
	if parent.Err() != nil {
		// Interrupted: the benchmarks printed whole are kept, without
		// what the child writes at its end (histograms, locks).
		return points, nil, parent.Err()
	}
	if ctx.Err() != nil {
		failures = append(failures, Failure{Pkg: p.path, CPUs: n, Output: text.BenchKilled(timeout, tail(output.String(), 20))})
	}
	if skipped := strings.Count(output.String(), "--- SKIP: Benchmark"); skipped > 0 && len(points)+len(failures) == 0 {
		failures = append(failures, Failure{Pkg: p.path, CPUs: n, Output: text.BenchAllSkipped(skipped)})
	}
	if err := attachHistograms(points, hist); err != nil {
		failures = append(failures, Failure{Pkg: p.path, CPUs: n, Output: err.Error()})
	}
	if cfg.Locks {
		if err := attachLocks(points, locks, targets); err != nil {
			failures = append(failures, Failure{Pkg: p.path, CPUs: n, Output: err.Error()})
		}
	}
	if waitErr != nil && len(failures) == 0 {
		failures = append(failures, Failure{Pkg: p.path, CPUs: n, Output: waitErr.Error() + ": " + tail(output.String(), 20)})
	}
	return points, failures, nil
}

// testArgs are the test binary's flags for a run on n CPUs, and the
// -test.timeout they give it.
func testArgs(cfg Config, n int) ([]string, time.Duration) {
	args := []string{"-test.run=" + cmp.Or(cfg.Run, "^$"), "-test.bench=" + cfg.bench(), "-test.cpu=" + strconv.Itoa(n),
		"-test.count=" + strconv.Itoa(cfg.count()), "-test.benchmem"}
	if cfg.Benchtime != "" {
		args = append(args, "-test.benchtime="+cfg.Benchtime)
	}
	// go test's own limit, which a test binary run by hand lacks; a
	// minute past it, a binary stopped or stuck is killed.
	timeout := 10 * time.Minute
	for _, f := range cfg.TestFlags {
		if v, ok := strings.CutPrefix(f, "-test.timeout="); ok {
			if d, err := time.ParseDuration(v); err == nil {
				timeout = d
			}
		}
	}
	args = append(args, "-test.timeout="+timeout.String())
	return append(args, cfg.TestFlags...), timeout
}

// parse reads a test binary's results and failures.
func parse(out string, p pkg, n int, start time.Time) ([]results.Point, []Failure) {
	var points []results.Point
	rd := benchfmt.NewReader(strings.NewReader(mend(out)), p.path)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		pt, err := results.BenchPoint(res, n, "")
		if err != nil {
			continue // a benchmark that reported no time per op: said below if it failed
		}
		pt.Bench.Pkg = p.path
		pt.Start = start.UTC().Round(time.Millisecond)
		points = append(points, pt)
	}
	results.NumberReps(points)

	var failures []Failure
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "--- FAIL: "):
			f := Failure{Pkg: p.path, CPUs: n, Bench: strings.Fields(strings.TrimPrefix(line, "--- FAIL: "))[0]}
			var msg []string
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "    ") {
				i++
				msg = append(msg, strings.TrimSpace(lines[i]))
			}
			f.Output = strings.Join(msg, "\n")
			failures = append(failures, f)
		case strings.HasPrefix(line, "panic: "):
			failures = append(failures, Failure{Pkg: p.path, CPUs: n, Output: tail(strings.Join(lines[i:], "\n"), 20)})
			i = len(lines)
		}
	}
	return points, failures
}

// splitName is a benchmark's name line cut off by the benchmark's own
// output; resultLine is the result on a line of its own.
var (
	splitName  = regexp.MustCompile(`^(Benchmark\S+)\s+\D`)
	resultLine = regexp.MustCompile(`^\s*\d+\s+\S+ ns/op`)
)

// mend joins each benchmark's name to its result where the benchmark
// wrote lines between them (bigcache logs as it starts), lest benchfmt
// read neither.
func mend(out string) string {
	lines := strings.Split(out, "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		m := splitName.FindStringSubmatch(lines[i])
		if m == nil {
			kept = append(kept, lines[i])
			continue
		}
		j := i + 1
		for j < len(lines) && !resultLine.MatchString(lines[j]) && !strings.HasPrefix(lines[j], "Benchmark") && !strings.HasPrefix(lines[j], "--- ") {
			j++
		}
		if j == len(lines) || !resultLine.MatchString(lines[j]) {
			kept = append(kept, lines[i])
			continue
		}
		kept = append(kept, m[1]+" \t"+strings.TrimSpace(lines[j]))
		i = j
	}
	return strings.Join(kept, "\n")
}

// attachHistograms gives each point the latency histogram package bench
// recorded of its run: the next record of its name and iterations.
func attachHistograms(points []results.Point, path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // no benchmark used package bench
	}
	if err != nil {
		return err
	}
	byName := map[string][]bench.Record{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var rec bench.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return fmt.Errorf("read the latency histograms: %w", err)
		}
		byName[rec.Name] = append(byName[rec.Name], rec)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read the latency histograms: %w", err)
	}
	for i := range points {
		p := &points[i]
		recs := byName[p.Bench.Name]
		j := slices.IndexFunc(recs, func(r bench.Record) bool { return int64(r.N) == p.Bench.Iters && r.Procs == p.CPUs })
		if j < 0 {
			continue
		}
		byName[p.Bench.Name] = recs[j+1:]
		probe := results.Point{Spec: results.Spec{Mode: p.Mode, CPUs: p.CPUs}, Hist: recs[j].Hist}
		h, err := probe.Histogram()
		if err != nil {
			return err
		}
		p.Hist, p.Latency = recs[j].Hist, results.Summarize(h)
	}
	return nil
}

// attachLocks gives each point the lock sites its run took, and its
// waits for the runtime's own locks, matched as attachHistograms matches.
func attachLocks(points []results.Point, path string, targets map[string]string) error {
	runs, err := lockwatch.Read(path)
	if err != nil {
		return fmt.Errorf("read the lock sites: %w", err)
	}
	byName := map[string][]lockwatch.Run{}
	for _, r := range runs {
		byName[r.Name] = append(byName[r.Name], r)
	}
	for i := range points {
		p := &points[i]
		p.Bench.Watched = true
		recs := byName[p.Bench.Name]
		j := slices.IndexFunc(recs, func(r lockwatch.Run) bool { return r.N == p.Bench.Iters && r.Procs == p.CPUs })
		if j < 0 {
			continue
		}
		byName[p.Bench.Name] = recs[j+1:]
		p.Bench.Locks, p.Par = lockwatch.Machines(recs[j]), recs[j].Workers()
		p.Waits = recs[j].Waits(p.Ops)
		for _, g := range lockwatch.Groups(recs[j]) {
			if g.Stretchable() {
				targets[g.Name] = g.Target()
			}
		}
	}
	return nil
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// log tells a line on Log, wrapped to its width.
func (cfg Config) log(line string) {
	if cfg.Log != nil {
		format.Lines(cfg.Log, "")(line)
	}
}

// Ended hands what Run measured to write, tells each failure on log, and
// turns how Run ended into the command's error (exitcode's kinds).
func Ended(res Result, runErr error, write func([]results.Point) error, log io.Writer) error {
	var build *BuildError
	var noMatch *NoMatchError
	var pkgErr *PackageError
	var cannot *lockwatch.CannotWatch
	switch {
	case errors.As(runErr, &cannot):
		return fmt.Errorf("--locks: %w", runErr)
	case errors.As(runErr, &build):
		return exitcode.Failure{Err: runErr}
	case errors.As(runErr, &noMatch) && noMatch.Bench == ".":
		return runErr // no benchmark at all: nothing -bench could choose
	case errors.As(runErr, &noMatch):
		return fmt.Errorf("-bench: %w", runErr)
	case errors.As(runErr, &pkgErr):
		return runErr
	}
	if len(res.Points) > 0 {
		if err := write(res.Points); err != nil {
			return exitcode.Failure{Err: err}
		}
	}
	for _, fl := range res.Failures {
		fmt.Fprintf(log, "FAIL: %v\n", fl)
	}
	switch {
	case errors.Is(runErr, context.Canceled):
		return exitcode.Interruption{Err: fmt.Errorf("interrupted after %s; kept what was measured", format.Count(len(res.Points), "point"))}
	case runErr != nil:
		return exitcode.Failure{Err: runErr}
	case len(res.Failures) > 0:
		return exitcode.Failure{Err: fmt.Errorf("%s failed; the report and the table hold the %s measured", format.Count(len(res.Failures), "benchmark run"), format.Count(len(res.Points), "point"))}
	}
	return nil
}
