package format

import (
	"io"
	"os"
	"strconv"
	"strings"
)

// The widths brewput lays its output out for.
const (
	// Columns is the width where nothing says another: a terminal of 80
	// columns shows every line whole.
	Columns = 80
	// NarrowestColumns is the least width laid out for: narrower, a
	// table's columns no longer fit beside each other at all.
	NarrowestColumns = 40
	// WidestColumns is the most: sentences wider than this are hard to
	// read, so a wider terminal still gets lines of at most this.
	WidestColumns = 120
)

// Width is how many columns output written to w is laid out for: what w
// says where it has a Columns method, the terminal's own where w is one, else COLUMNS where the environment sets
// it (as a shell does for a pipe it was asked to fill), else Columns; kept
// within NarrowestColumns and WidestColumns. Every table, sentence and
// progress line brewput writes for people wraps to it.
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

// Lines returns a function that writes each line of progress it is
// given to w after prefix, wrapped to w's width, its further lines
// indented by two spaces more than it is: where a command tells how far
// it has got, or what went wrong. A text of several lines is wrapped line
// by line.
func Lines(w io.Writer, prefix string) func(text string) {
	return func(text string) {
		width := Width(w)
		var b strings.Builder
		for i, line := range strings.Split(prefix+text, "\n") {
			indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			if i > 0 && strings.TrimSpace(line) == "" {
				b.WriteString("\n")
				continue
			}
			b.WriteString(indent + Wrap(line, width-len(indent), indent+"  ") + "\n")
		}
		io.WriteString(w, b.String())
	}
}
