package results

import (
	"fmt"
	"io"
	"strings"
)

// Format is an encoding of a list of points.
type Format int

// The formats: a table for people, CSV, JSON Lines, and Go benchmark lines.
const (
	Table Format = iota
	CSV
	JSON
	Bench
)

// Formats lists the names ParseFormat accepts.
func Formats() []string { return []string{"table", "csv", "json", "bench"} }

// String returns the name ParseFormat reads.
func (f Format) String() string { return nameOf(Formats(), f, "Format") }

// ParseFormat reads a format name.
func ParseFormat(s string) (Format, error) {
	if f, ok := parseName[Format](Formats(), s); ok {
		return f, nil
	}
	return 0, fmt.Errorf("unknown format %q; accepted: %s", s, strings.Join(Formats(), ", "))
}

// FormatForFile guesses a file's format from its extension.
func FormatForFile(name string) (f Format, ok bool) {
	switch {
	case strings.HasSuffix(name, ".json"), strings.HasSuffix(name, ".jsonl"):
		return JSON, true
	case strings.HasSuffix(name, ".csv"):
		return CSV, true
	case strings.HasSuffix(name, ".bench"):
		return Bench, true
	}
	return 0, false
}

// Write encodes points to w in a file's format f (a table and Go
// benchmark lines, whose comments say why a point is left out, are
// report/text's).
func Write(w io.Writer, f Format, points []Point) error {
	switch f {
	case CSV:
		return WriteCSV(w, points)
	case JSON:
		return WriteJSON(w, points)
	}
	return fmt.Errorf("points as a %s: not a file's format", f)
}
