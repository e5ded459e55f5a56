package results

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// accepted names the formats ReadFile reads, for its errors.
const accepted = "want JSON Lines from --format json, CSV from --format csv, or Go benchmark output from --format bench or go test -bench"

// ReadFile reads a results file, JSON Lines, CSV or the Go benchmark
// format, telling which from its content rather than its name: JSON Lines
// start with '{', CSV with brewput's CSV header, and Go benchmark output
// (--format bench, or any go test -bench output; see ReadBench) has a
// benchmark result line. Anything else, such as table output, is an error
// that says what the file seems to be and what is accepted. Errors name
// the file, and the line where there is one; a file with no points is an
// error, as nothing can be made of it.
func ReadFile(path string) ([]Point, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // names the file already
	}
	var points []Point
	content := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case len(content) == 0:
		return nil, fmt.Errorf("%s: holds no points (the file is empty)", path)
	case content[0] == '{':
		points, err = ReadJSON(bytes.NewReader(data))
	case isCSVHeader(firstLine(content)):
		points, err = ReadCSV(bytes.NewReader(data))
	case isBench(data):
		points, err = ReadBench(bytes.NewReader(data), path)
	default:
		return nil, fmt.Errorf("%s: %s (%s)", path, whatIs(firstLine(content)), accepted)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(points) == 0 {
		return nil, fmt.Errorf("%s: holds no points", path)
	}
	return points, nil
}

// ReadFiles reads each file with ReadFile and returns their points, in
// order: file by file, and within a file as written.
func ReadFiles(paths ...string) ([]Point, error) {
	var all []Point
	for _, path := range paths {
		points, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		all = append(all, points...)
	}
	return all, nil
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
	// Go benchmark output starts with a configuration line, a Unit line,
	// a result, or, from go test, PASS or a test's output.
	for _, prefix := range []string{"goos:", "goarch:", "pkg:", "cpu:", "source:", "Unit ", "Benchmark", "# Benchmark", "PASS", "FAIL", "ok ", "--- "} {
		if strings.HasPrefix(line, prefix) {
			return "Go benchmark output without a single benchmark result"
		}
	}
	return "not a brewput results file"
}
