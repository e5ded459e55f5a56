package results

import (
	"bytes"
	"fmt"
	"strings"
)

// accepted names the formats ReadFile reads, for its errors.
const accepted = "want JSON Lines from --format json, CSV from --format csv, or Go benchmark output from --format bench or go test -bench"

// ReadFile reads a results file's points: JSON Lines, CSV or the Go
// benchmark format (see Open, which tells which, and gives the file's
// plan and the reader's notes too).
func ReadFile(path string) ([]Point, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	return f.Points, nil
}

// ReadFiles reads each file with ReadFile and returns their points, in
// order: file by file, and within a file as written; exact duplicates are
// counted once (see Merge).
func ReadFiles(paths ...string) ([]Point, error) {
	f, err := OpenAll(paths...)
	if err != nil {
		return nil, err
	}
	return f.Points, nil
}

// OpenAll opens each file (see Open) and merges them (see Merge).
func OpenAll(paths ...string) (*File, error) {
	var files []*File
	for _, path := range paths {
		f, err := Open(path)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return Merge(files...), nil
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return string(bytes.TrimRight(line, "\r"))
}

// whatIs guesses what a file that ReadFile cannot read is, from its first
// non-blank line, so that its error says more than "no".
func whatIs(line string) string {
	if strings.HasPrefix(line, "source,mode,") || strings.HasPrefix(line, "kind,source,") {
		return fmt.Sprintf("CSV whose header is not brewput's: %v", checkCSVHeader(strings.Split(line, ",")))
	}
	// Go benchmark output starts with a configuration line, a Unit line,
	// a result, or, from go test, PASS or a test's output.
	for _, prefix := range []string{"goos:", "goarch:", "pkg:", "cpu:", "source:", "Unit ", "Benchmark", "# Benchmark", "PASS", "FAIL", "ok ", "--- "} {
		if strings.HasPrefix(line, prefix) {
			return "Go benchmark output without a single benchmark result"
		}
	}
	return "not a brewput results file"
}
