package outfile

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// Open refuses an unknown format naming --format, prints to stdout where
// no --out is given, and guesses a file's format from its extension
// unless --format says it.
func TestSinkOpen(t *testing.T) {
	given := func(names ...string) func(string) bool {
		return func(flag string) bool { return slices.Contains(names, flag) }
	}
	plan := results.Plan{Command: "run", Points: 1}
	var s Sink
	if err := s.Open("yaml", "", given(), plan); err == nil || !strings.HasPrefix(err.Error(), "--format: ") {
		t.Errorf("Open of format yaml = %v, want an error naming --format", err)
	}
	s = Sink{}
	if err := s.Open("json", "", given("format"), plan); err != nil || s.Format != results.JSON || s.Out != nil {
		t.Errorf("Open(json, no --out) = %v, format %v, out %v; want JSON to stdout", err, s.Format, s.Out)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		file   string
		flags  []string
		format string
		want   results.Format
	}{{"a.csv", []string{"out"}, "table", results.CSV}, {"a.data", []string{"out"}, "table", results.JSON}, {"a.data", []string{"out", "format"}, "csv", results.CSV}} {
		s = Sink{}
		if err := s.Open(c.format, filepath.Join(dir, c.file), given(c.flags...), plan); err != nil || s.Format != c.want || s.Out == nil {
			t.Errorf("Open(%s, --out %s, given %v) = %v, format %v; want %v to the file", c.format, c.file, c.flags, err, s.Format, c.want)
			continue
		}
		s.Out.Discard()
	}
	if err := s.Open("table", filepath.Join(dir, "no", "such", "\x00"), given("out"), plan); err == nil || !strings.HasPrefix(err.Error(), "--out ") {
		t.Errorf("Open of an impossible file = %v, want an error naming --out", err)
	}
}
