package format

import (
	"io"
	"os"
	"strconv"
)

// The widths brewput lays its output out for: Columns where nothing says
// another, NarrowestColumns below which columns no longer fit beside each
// other, WidestColumns above which sentences are hard to read.
const (
	Columns          = 80
	NarrowestColumns = 40
	WidestColumns    = 120
)

// Width is the columns output to w is laid out for: w's Columns method's,
// the terminal's, COLUMNS (a shell sets it for a pipe), else Columns;
// within NarrowestColumns and WidestColumns.
func Width(w io.Writer) int {
	if c, ok := w.(interface{ Columns() int }); ok && c.Columns() > 0 {
		return c.Columns() // a writer that knows its width, as is
	}
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if n := terminalColumns(f.Fd()); n > 0 {
			return clampColumns(n)
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return clampColumns(n)
	}
	return Columns
}

func clampColumns(n int) int { return min(max(n, NarrowestColumns), WidestColumns) }

// Lines returns a function writing each line of progress to w after
// prefix, wrapped to w's width line by line, further lines indented two
// more.
func Lines(w io.Writer, prefix string) func(text string) {
	return func(text string) { io.WriteString(w, wrapLines(prefix+text, Width(w))) }
}
