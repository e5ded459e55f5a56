package results

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// accepted names the formats ReadFile reads, for its errors.
const accepted = "want JSON Lines from --format json or CSV from --format csv"

// ReadFile reads a results file, JSON Lines or CSV, telling which from its
// content rather than its name: JSON Lines start with '{', CSV with
// brewput's CSV header. Anything else, such as --format bench or table
// output, is an error that says what the file seems to be and what is
// accepted. Errors name the file, and the line where there is one; a file
// with no points is an error, as nothing can be made of it.
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
	// WriteBench starts with a configuration line, a Unit line, a result
	// or the comment on a point left out.
	for _, prefix := range []string{"goos:", "goarch:", "pkg:", "cpu:", "source:", "Unit ", "Benchmark", "# Benchmark"} {
		if strings.HasPrefix(line, prefix) {
			return "the Go benchmark format of --format bench, which is for benchstat and is not read back"
		}
	}
	return "not a brewput results file"
}
