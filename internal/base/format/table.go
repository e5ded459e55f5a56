package format

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Align is where a cell sits in its column.
type Align uint8

const (
	Left Align = iota
	Right
)

// gap is the space between two columns.
const gap = "  "

// Table lays rows of cells out in columns for a terminal: each column as
// wide as its widest cell, in runes, and two spaces from the next, as
// text/tabwriter would with a padding of 2. Footnotes (Mark) follow it.
type Table struct {
	// Align is each column's alignment, its last one repeated for the
	// columns past it; Left where it is empty.
	Align []Align
	// Indent puts the two spaces before every column, the first
	// included, as tables of numbers have them; without it they follow
	// every column, the last included.
	Indent bool
	// Ragged leaves the last column unpadded, and a row's empty cells
	// at its end unwritten: text of any length, such as a verdict.
	Ragged bool
	// Width is the columns the table is laid out for, its last ragged
	// cell and its footnotes wrapped to it; Width of the writer where 0.
	Width int
	rows  []row
	notes []string
}

// row is a table's row of cells, or a line written as it is.
type row struct {
	cells []string
	line  string
}

// Row adds a row of cells.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, row{cells: cells}) }

// Line adds a line written as it is between the rows, out of the
// columns: a row's explanation.
func (t *Table) Line(s string) { t.rows = append(t.rows, row{line: s}) }

// Mark returns the mark of a footnote to put after a cell, " ¹", adding
// the note under the table if it is not there yet.
func (t *Table) Mark(note string) string {
	i := 0
	for i < len(t.notes) && t.notes[i] != note {
		i++
	}
	if i == len(t.notes) {
		t.notes = append(t.notes, note)
	}
	return " " + superscript(i+1)
}

// Write writes the table, then its footnotes.
func (t *Table) Write(w io.Writer) error {
	width := t.Width
	if width == 0 {
		width = Width(w)
	}
	var widths []int
	for _, r := range t.rows {
		for i, c := range r.cells {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		if r.cells == nil {
			b.WriteString(wrapLine(r.line, width))
			continue
		}
		var rb strings.Builder
		for i, c := range r.cells {
			if t.Ragged && i == len(widths)-1 {
				if c != "" && t.Indent {
					rb.WriteString(gap)
				}
				rb.WriteString(wrapCell(c, utf8.RuneCountInString(rb.String()), width))
				break
			}
			if t.Ragged && strings.Join(r.cells[i:], "") == "" {
				break // a ragged row ends with its last cell of text
			}
			if t.Indent {
				rb.WriteString(gap)
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if t.Ragged && t.align(i) == Left && strings.Join(r.cells[i+1:], "") == "" {
				pad = "" // the row's last text: nothing after it to line up
			}
			if t.align(i) == Right {
				rb.WriteString(pad + c)
			} else {
				rb.WriteString(c + pad)
			}
			if !t.Indent {
				rb.WriteString(gap)
			}
		}
		row := rb.String()
		if t.Ragged {
			// A last cell moved under its row leaves no spaces behind.
			first, rest, under := strings.Cut(row, "\n")
			if row = strings.TrimRight(first, " "); under {
				row += "\n" + rest
			}
		}
		b.WriteString(row + "\n")
	}
	for i, n := range t.notes {
		b.WriteString(Wrap(superscript(i+1)+" "+n, width, "  ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// NarrowestWrap is the narrowest room a ragged table's last cell is
// wrapped into beside its row; with less, it goes under the row.
const NarrowestWrap = 20

// underRow is the indent of a ragged table's last cell put under its
// row.
const underRow = "      "

// wrapCell wraps a ragged table's last cell, which starts at column col,
// so that its lines end within width, each further line starting at col;
// a cell that starts too far right for a useful width goes on lines of
// its own under its row.
func wrapCell(c string, col, width int) string {
	switch {
	case col+utf8.RuneCountInString(c) <= width:
		return c
	case width-col < NarrowestWrap:
		return "\n" + underRow + Wrap(c, width-len(underRow), underRow)
	}
	lines := strings.Split(Wrap(c, width-col, ""), "\n")
	return strings.Join(lines, "\n"+strings.Repeat(" ", col))
}

// wrapLine writes a line of a table, a line of text given whole: each
// of its lines wider than width wrapped, further lines indented two
// spaces more than it.
func wrapLine(s string, width int) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if utf8.RuneCountInString(line) <= width {
			b.WriteString(line + "\n")
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
		b.WriteString(indent + Wrap(line, width-len(indent), indent+"  ") + "\n")
	}
	return b.String()
}

// align is column i's alignment.
func (t *Table) align(i int) Align {
	if len(t.Align) == 0 {
		return Left
	}
	return t.Align[min(i, len(t.Align)-1)]
}

// superscript writes n in superscript digits: "¹", "¹²".
func superscript(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var s []rune
	for _, d := range strconv.Itoa(n) {
		s = append(s, digits[d-'0'])
	}
	return string(s)
}
