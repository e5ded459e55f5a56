package format

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWidth(t *testing.T) {
	var b strings.Builder
	for _, c := range []struct {
		columns string
		want    int
	}{{"", Columns}, {"100", 100}, {"x", Columns}, {"-3", Columns}, {"10", NarrowestColumns}, {"500", WidestColumns}} {
		t.Setenv("COLUMNS", c.columns)
		if got := Width(&b); got != c.want {
			t.Errorf("COLUMNS=%q: Width %d, want %d", c.columns, got, c.want)
		}
	}
}

// TestWrapKeepsValues: a number and its unit stay on one line, and
// widths count runes, not bytes.
func TestWrapKeepsValues(t *testing.T) {
	check(t, "Wrap", func(s string) string { return Wrap(s, 14, "  ") }, cases[string]{
		{"CPU util 100 %", "CPU util 100 %"},
		{"the CPU util 100 %", "the CPU util\n  100 %"},
		{"waits 20 µs, runs", "waits 20 µs,\n  runs"},
		{"µµµµµ µµµµµ µµ", "µµµµµ µµµµµ µµ"},
		{"ends s and % alone", "ends s and %\n  alone"},
		{"and use --count 6", "and use\n  --count 6"},
		{"linear on 2 CPUs", "linear on\n  2 CPUs"},
		{"op 110.0 p50-ns 380.0 p99-ns", "op\n  110.0 p50-ns\n  380.0 p99-ns"},
		{"run 983.6 ns/op 1 B/op", "run\n  983.6 ns/op\n  1 B/op"},
		{"makes 250 lattes/s", "makes\n  250 lattes/s"},
	})
}

func TestLines(t *testing.T) {
	t.Setenv("COLUMNS", "40")
	var b strings.Builder
	Lines(&b, "lab ")(strings.Repeat("word ", 30) + "util 100 %")
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > 40 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	if !strings.HasPrefix(b.String(), "lab word") || !strings.HasSuffix(b.String(), " 100 %\n") {
		t.Errorf("Lines wrote %q", b.String())
	}
}
