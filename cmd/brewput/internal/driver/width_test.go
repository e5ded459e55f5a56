package driver

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/base/race"
)

// columnsUnderTest is the width the tests lay output out for, as a
// terminal of 80 columns, or a pipe where COLUMNS is not set, gets it:
// TestMain sets COLUMNS to it, so that no test's output depends on the
// environment it was started from.
const columnsUnderTest = "80"

// TestEveryCommandFitsEighty runs every command brewput lists, small, and
// fails on any line of its output, progress or error over 80 columns
// that is not one value (a path, a word) alone on its line: what a
// terminal 80 wide would wrap.
func TestEveryCommandFitsEighty(t *testing.T) {
	if race.Enabled {
		// Widths are the plain run's to check; each command runs under
		// the detector in tests of its own (why, the labs, the model's
		// packages). Here they took the race run's cmd/brewput/internal/driver from 73 s
		// to 149 s, its why alone 62 s.
		t.Skip("the widths checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	dir := t.TempDir()
	cal := fixedCalibration(t)
	samples := filepath.Join("..", "..", "..", "..", "results", "testdata", "samples")
	cacheStudy := filepath.Join("..", "..", "..", "..", "examples", "cache", "study")
	measured := filepath.Join(cacheStudy, "testdata", "measured.json")
	studyCal := filepath.Join(cacheStudy, "testdata", "calibration.json")
	out := func(name string) string { return filepath.Join(dir, name) }
	// As long as the user's cache folder that bench writes to by default
	// makes its report's path: "report: PATH" must not pass 80 columns.
	longFolder := strings.Repeat("a-folder-of-the-cache/", 3)
	// Every command that measures keeps its first measurement (--noisy
	// ok), disturbed or not, marked either way: retrying after a wait for
	// a quiet machine lays out nothing else, and beside go test's other
	// packages the labs' retries took 12–16 s each.
	quick := []string{"--dur", "60ms", "--warmup", "0s", "--noisy", "ok"}
	cases := []struct {
		command string // as cobra's CommandPath names it
		args    []string
		child   childCommand
		env     func(e *env)
	}{
		{"brewput", append([]string{"--modes", "noop,finelocking", "--cpus", "1", "--out", out("report")}, quick...), selfChild(), nil},
		{"brewput run", append([]string{"run", "--modes", "noop,finelocking", "--cpus", "1", "--format", "table"}, quick...), selfChild(), nil},
		{"brewput model", []string{"model", "--modes", "parsteam,multipipe-2,finelocking", "--cpus", "1-8", "--calibration", cal}, noChild(), nil},
		{"brewput model", []string{"model", "--modes", "parsteam,multi-2", "--cpus", "1,6", "--format", "table", "--calibration", cal}, noChild(), nil},
		{"brewput advise", []string{"advise", "--mode", "multipipe-2", "--cpus", "8", "--dur", "100ms", "--calibration", cal}, noChild(), nil},
		{"brewput schedule", []string{"schedule", "--mode", "parsteam", "--cpus", "6", "--calibration", cal, "--out", out("schedule")}, noChild(), nil},
		{"brewput calibrate", []string{"calibrate", "--show", "--out", cal}, noChild(), nil},
		{"brewput report", []string{"report", filepath.Join(samples, "shop.json"), filepath.Join(samples, "lab.json"), "--out", out("report-samples")}, noChild(), nil},
		{"brewput compare", []string{"compare", filepath.Join(samples, "shop.json"), filepath.Join(samples, "model.json")}, noChild(), nil},
		{"brewput compare", []string{"compare", filepath.Join(samples, "shop.json"), filepath.Join(samples, "shop.json")}, noChild(), nil},
		{"brewput fit", []string{"fit", "testdata/gotest-cpus.txt"}, noChild(), nil},
		{"brewput list", []string{"list"}, noChild(), nil},
		{"brewput version", []string{"version"}, noChild(), nil},
		{"brewput lab", []string{"lab"}, noChild(), nil},
		{"brewput lab list", []string{"lab", "list"}, noChild(), nil},
		{"brewput lab workloads", []string{"lab", "workloads", "--cpus", "1", "--add-size", "10000", "--sort-size", "300", "--docs", "20", "--reps", "1", "--noisy", "ok"}, noChild(), nil},
		{"brewput lab wordcount", []string{"lab", "wordcount", "--cpus", "1", "--size", "20000", "--reps", "1", "--noisy", "ok"}, noChild(), nil},
		{"brewput lab render", []string{"lab", "render", "--cpus", "1", "--size", "48", "--max-iter", "16", "--reps", "1", "--noisy", "ok"}, noChild(), nil},
		{"brewput lab channels", []string{"lab", "channels", "--cpus", "1", "--lines", "2000", "--size", "1", "--consumers", "1", "--batch", "1,10", "--noisy", "ok"}, noChild(), nil},
		{"brewput lab actors", []string{"lab", "actors", "--cpus", "1", "--clients", "1,4", "--requests", "2000", "--reps", "1", "--noisy", "ok"}, noChild(), nil},
		{"brewput lab aggregate", []string{"lab", "aggregate", "--cpus", "1", "--producers", "1,2", "--buffers", "0,16", "--events", "2000", "--reps", "1", "--noisy", "ok"}, noChild(), nil},
		{"brewput lab logs", []string{"lab", "logs", "--cpus", "1", "--kinds", "memory,file", "--writers", "1,2", "--appends", "1000", "--reps", "1", "--dir", out("logs"), "--noisy", "ok"}, noChild(), nil},
		{"brewput lab stream", []string{"lab", "stream", "--cpus", "1", "--buffers", "0,8", "--messages", "500", "--reps", "1", "--noisy", "ok"}, noChild(), nil},
		{"brewput lessons", []string{"lessons", "--only", "talk/ideal-scales"}, selfChild(), func(e *env) { e.lessonsTiny = true }},
		// Its six rounds of ten runs each, as users get them, each short:
		// what is laid out does not depend on how long a run measures.
		{"brewput why", []string{"why", "--mode", "finelocking", "--cpus", "2", "--dur", "30ms", "--warmup", "0s", "--noisy", "ok", "--calibration", cal}, selfChild(), nil},
		// why of a benchmark and of a study's variant: their first line,
		// the plan with its limit, ran to 119 columns.
		{"brewput why", []string{"why", "../../../../examples/book", "-bench", "Book/design=onelock", "--cpus", "1", "--count", "2", "--max-count", "2", "--benchtime", "2000x", "--noisy", "ok", "--calibration", cal}, noChild(), nil},
		{"brewput study", []string{"study", cacheStudy, "why", "--cpus", "1", "--variant", "mutex-write", "--count", "2", "--max-count", "2", "--dur", "50ms", "--noisy", "ok", "--calibration", studyCal}, noChild(), nil},
		{"brewput bench", []string{"bench", "../../../../examples/cache", "-bench", "Cache/design=mutex/load=read", "-cpu", "1,2", "-benchtime", "20x", "--out", out(longFolder + "bench")}, noChild(), nil},
		{"brewput predict", []string{"predict", "../../../../examples/cache", "-bench", "Cache/design=mutex/load=read", "--cpus", "1,2,64", "-benchtime", "200x", "--noisy", "ok"}, noChild(), nil},
		{"brewput study", []string{"study", cacheStudy, "list"}, noChild(), nil},
		{"brewput study", []string{"study", cacheStudy, "--cpus", "1", "--dur", "50ms", "--variants", "mutex-write,sharded-write", "--count", "2", "--noisy", "ok", "--out", out("study")}, noChild(), nil},
		{"brewput study", []string{"study", cacheStudy, "run", "--cpus", "1", "--dur", "50ms", "--variants", "mutex-write", "--noisy", "ok"}, noChild(), nil},
		// On up to 64 CPUs with every variant in docs/own-code.md, whose
		// commands TestDocExamples holds to 80 columns as well.
		{"brewput study", []string{"study", cacheStudy, "predict", "--from", measured, "--cpus", "1,2,4", "--variants", "mutex-write,sharded-write"}, noChild(), nil},
		// What the playground tests' run wrote (sharedPlayground), not
		// built again: the engine's build is most of the command's time.
		{"brewput playground", []string{"playground", "--out", "SITE", "--calibration", "CAL"}, noChild(), nil},
		// Errors: a usage error, a failure, and a refusal naming a path.
		{"brewput", []string{"--cpus", "1-300"}, noChild(), nil},
		{"brewput model", []string{"model", "--modes", "multipipe-2,nope", "--cpus", "4"}, noChild(), nil},
		{"brewput report", []string{"report", out("no-such-results-file-with-a-long-name.json"), "--out", out("r")}, noChild(), nil},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.command] = true
	}
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		if !covered[cmd.CommandPath()] && cmd.Name() != "help" {
			t.Errorf("%s is not run here: add it", cmd.CommandPath())
		}
		for _, sub := range cmd.Commands() {
			if !sub.Hidden {
				walk(sub)
			}
		}
	}
	walk(newRoot(&env{}))

	for _, c := range cases {
		if c.command == "brewput playground" && testing.Short() {
			continue // builds the WebAssembly engine
		}
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			// Each command reads its own flags and files and writes its
			// own outputs (calibrate --show only prints the file): they
			// run beside each other.
			t.Parallel()
			var stdout, stderr syncBuffer
			e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, child: c.child}
			if c.env != nil {
				c.env(e)
			}
			var outText, errText string
			switch {
			case c.command == "brewput playground":
				_, _, outText, errText = sharedPlayground(t)
			case c.command == "brewput study" && c.args[2] != "list":
				// The study built once for the tests (buildCache), not
				// once a command; study list runs as a user's does.
				inStudyTo(context.Background(), buildCache(t), &stdout, &stderr, c.args[2:]...)
				outText, errText = stdout.String(), stderr.String()
			default:
				runEnv(context.Background(), c.args, e)
				outText, errText = stdout.String(), stderr.String()
			}
			for _, s := range []struct{ name, text string }{{"stdout", outText}, {"stderr", errText}} {
				for _, line := range overColumns(s.text, format.Columns) {
					t.Errorf("brewput %s: a line of %s over %d columns: %q", strings.Join(c.args, " "), s.name, format.Columns, line)
				}
				for _, id := range goIdentifiers(s.text) {
					t.Errorf("brewput %s: its %s names %q, a Go identifier of brewput's", strings.Join(c.args, " "), s.name, id)
				}
			}
		})
	}
}

// qualified is a Go identifier qualified by its package: "results.CPU".
var qualified = regexp.MustCompile(`\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*`)

// userAPIs are the packages whose identifiers brewput names to the user,
// who writes them: the standard library's locks and runtime, a
// benchmark's b, and brewput's own packages for the user's code.
var userAPIs = []string{"sync", "runtime", "testing", "b", "bufio", "study", "meter", "bench"}

// goIdentifiers are the identifiers qualified by a package of s that no
// user writes: a program's name, not words.
func goIdentifiers(s string) []string {
	return slices.DeleteFunc(qualified.FindAllString(s, -1), func(id string) bool {
		pkg, _, _ := strings.Cut(id, ".")
		return slices.Contains(userAPIs, pkg)
	})
}

// overColumns are the lines of s wider than width, but for one word
// alone on its line: a value, which is never split.
func overColumns(s string, width int) []string {
	var over []string
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\n")
		if utf8.RuneCountInString(line) > width && len(strings.Fields(line)) > 1 {
			over = append(over, line)
		}
	}
	return over
}
