package format

import (
	"cmp"
	"io"
	"slices"
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

// Table lays rows out in columns for a terminal, each as wide as its
// widest cell in runes and two spaces from the next (tabwriter's padding
// 2), with footnotes (Mark) after.
type Table struct {
	// Align is each column's alignment, the last repeated; Left where empty.
	Align []Align
	// Indent puts the gap before every column, as tables of numbers have it;
	// else it follows every column.
	Indent bool
	// Ragged leaves the last column unpadded and a row's empty trailing cells
	// unwritten: text of any length, such as a verdict.
	Ragged bool
	// Width is what the last ragged cell and the footnotes wrap to; the
	// writer's where 0.
	Width int
	rows  []row
	notes []string
}

type row struct {
	cells []string
	line  string
}

// Row adds a row of cells.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, row{cells: cells}) }

// Line adds a line written as it is between the rows: a row's explanation.
func (t *Table) Line(s string) { t.rows = append(t.rows, row{line: s}) }

// Mark adds a footnote under the table, once, and returns its mark: " ¹".
func (t *Table) Mark(note string) string {
	i := slices.Index(t.notes, note)
	if i < 0 {
		i, t.notes = len(t.notes), append(t.notes, note)
	}
	return " " + superscript(i+1)
}

// Write writes the table, then its footnotes.
func (t *Table) Write(w io.Writer) error {
	width := cmp.Or(t.Width, Width(w))
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
			b.WriteString(wrapLines(r.line, width))
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

// NarrowestWrap is the narrowest room a ragged last cell wraps into beside
// its row; with less, it goes under it, indented underRow.
const NarrowestWrap = 20

const underRow = "      "

// wrapCell wraps a ragged last cell starting at column col, further lines
// at col, or under its row where that leaves too little room.
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

// wrapLines wraps each line of s to width: one that fits as it is, a
// longer one's further lines indented two more than it.
func wrapLines(s string, width int) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if utf8.RuneCountInString(line) <= width {
			b.WriteString(line + "\n")
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		b.WriteString(indent + Wrap(line, width-len(indent), indent+"  ") + "\n")
	}
	return b.String()
}

func (t *Table) align(i int) Align {
	if len(t.Align) == 0 {
		return Left
	}
	return t.Align[min(i, len(t.Align)-1)]
}

func superscript(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var s []rune
	for _, d := range strconv.Itoa(n) {
		s = append(s, digits[d-'0'])
	}
	return string(s)
}
