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
	rows   []row
	notes  []string
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
	for ri, r := range t.rows {
		if r.cells == nil {
			b.WriteString(r.line + "\n")
			continue
		}
		lineStart := b.Len()
		for i, c := range r.cells {
			if t.Ragged && i == len(widths)-1 {
				if c != "" && t.Indent {
					b.WriteString(gap)
				}
				if ri > 0 { // a heading stays on its line
					c = wrapCell(c, utf8.RuneCountInString(b.String()[lineStart:]))
				}
				b.WriteString(c)
				break
			}
			if t.Ragged && strings.Join(r.cells[i:], "") == "" {
				break // a ragged row ends with its last cell of text
			}
			if t.Indent {
				b.WriteString(gap)
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if t.Ragged && t.align(i) == Left && strings.Join(r.cells[i+1:], "") == "" {
				pad = "" // the row's last text: nothing after it to line up
			}
			if t.align(i) == Right {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
			if !t.Indent {
				b.WriteString(gap)
			}
		}
		b.WriteString("\n")
	}
	for i, n := range t.notes {
		b.WriteString(Wrap(superscript(i+1)+" "+n, Columns, "  ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// NarrowestWrap is the narrowest room a ragged table's last cell is
// wrapped into.
const NarrowestWrap = 30

// wrapCell wraps a ragged table's last cell, which starts at column col,
// so that its lines end within Columns, each further line starting at col;
// a cell that starts too far right for a useful width stays one line.
func wrapCell(c string, col int) string {
	if col+utf8.RuneCountInString(c) <= Columns || Columns-col < NarrowestWrap {
		return c
	}
	lines := strings.Split(Wrap(c, Columns-col, ""), "\n")
	return strings.Join(lines, "\n"+strings.Repeat(" ", col))
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
