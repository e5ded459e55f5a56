// Command testsummary reads `go test -json` on stdin and prints what `go
// test` would without the passing tests' chatter, then a line saying how
// many tests skipped and why (timing tests on a busy machine). .ci/run
// pipes `go test -json ./...` through it; it exits 1 where anything failed.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
)

// event is a line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// skip is one reason tests skipped for, and which.
type skip struct {
	reason string
	tests  []string
}

// summary is what a run said: lines to print, skips by reason, failure.
type summary struct {
	lines  []string
	skips  []*skip
	failed bool
}

// location is the "file_test.go:12: " a test's log line opens with.
var location = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: `)

// read reads go test -json from r.
func read(r io.Reader) (summary, error) {
	var s summary
	output := map[string][]string{} // a running test's output, by package and test
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			s.lines = append(s.lines, strings.TrimRight(sc.Text(), "\n")) // not JSON: go test's own words
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch {
		case e.Action == "build-output":
			s.lines = append(s.lines, strings.TrimRight(e.Output, "\n"))
		case e.Action == "build-fail":
			s.failed = true
		case e.Test == "" && e.Action == "output":
			out := strings.TrimRight(e.Output, "\n")
			if strings.HasPrefix(out, "ok") || strings.HasPrefix(out, "FAIL") || strings.HasPrefix(out, "?") || strings.HasPrefix(out, "panic") {
				s.lines = append(s.lines, out)
			}
		case e.Test == "" && e.Action == "fail":
			s.failed = true
			// Tests that never ended (a timeout's panic, a crash): what
			// they printed is where the package stopped.
			for _, k := range slices.Sorted(maps.Keys(output)) {
				if strings.HasPrefix(k, e.Package+"\x00") {
					s.lines = append(s.lines, output[k]...)
					delete(output, k)
				}
			}
		case e.Test == "" && e.Action == "skip":
			// A package with no test files: no test of it skipped.
		case e.Action == "output":
			output[key] = append(output[key], strings.TrimRight(e.Output, "\n"))
		case e.Action == "fail":
			s.failed = true
			s.lines = append(s.lines, output[key]...)
			delete(output, key)
		case e.Action == "skip":
			s.add(e.Package, e.Test, reason(output[key]))
			delete(output, key)
		case e.Action == "pass":
			delete(output, key)
		}
	}
	return s, sc.Err()
}

// reason is why a test skipped, from its output: the log line before its
// "--- SKIP", without its file and line; "no reason given" where none.
func reason(out []string) string {
	for i := len(out) - 1; i >= 0; i-- {
		l := strings.TrimSpace(out[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		if loc := location.FindString(out[i]); loc != "" {
			return strings.TrimSpace(out[i][len(loc):])
		}
	}
	return "no reason given"
}

func (s *summary) add(pkg, test, why string) {
	name := pkg[strings.LastIndexByte(pkg, '/')+1:] + "." + test
	if i := slices.IndexFunc(s.skips, func(k *skip) bool { return k.reason == why }); i >= 0 {
		s.skips[i].tests = append(s.skips[i].tests, name)
		return
	}
	s.skips = append(s.skips, &skip{reason: why, tests: []string{name}})
}

// skipped says how many tests skipped and why, commonest first: "3 tests
// skipped: machine busy (2: format.TestA, format.TestB); …".
func (s summary) skipped() string {
	n := 0
	for _, k := range s.skips {
		n += len(k.tests)
	}
	if n == 0 {
		return "no test skipped"
	}
	slices.SortStableFunc(s.skips, func(a, b *skip) int { return cmp.Compare(len(b.tests), len(a.tests)) })
	parts := collect.Mapped(s.skips, func(k *skip) string {
		return fmt.Sprintf("%s (%d: %s)", k.reason, len(k.tests), strings.Join(k.tests, ", "))
	})
	return fmt.Sprintf("%s skipped: %s", format.Count(n, "test"), strings.Join(parts, "; "))
}

func main() {
	s, err := read(os.Stdin)
	for _, l := range s.lines {
		fmt.Println(l)
	}
	format.Lines(os.Stdout, "")(s.skipped())
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
	if s.failed {
		os.Exit(1)
	}
}
