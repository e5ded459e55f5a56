package results

import (
	"bytes"
	"fmt"
	"strings"
)

// accepted names the formats ReadFile reads, for its errors.
const accepted = "want JSON Lines from --format json or CSV from --format csv"

// ReadFile reads a results file's points (see Open, which gives its
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
	if strings.HasPrefix(line, "source,mode,") {
		return fmt.Sprintf("CSV whose header is not brewput's: %v", checkCSVHeader(strings.Split(line, ",")))
	}
	// WriteBench starts with a configuration line, a Unit line, a result
	// or the comment on a point left out.
	for _, prefix := range []string{"goos:", "goarch:", "pkg:", "cpu:", "source:", "Unit ", "Benchmark", "# Benchmark"} {
		if strings.HasPrefix(line, prefix) {
			return "the Go benchmark format of --format bench, which is for benchstat and is not read back"
		}
	}
	return "not a brewput results file"
}
