package format

import (
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode/utf8"
)

func write(t *testing.T, tb *Table) string {
	t.Helper()
	var b strings.Builder
	if err := tb.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A table of numbers is indented, its first column to the left and the
// numbers to the right, widths counted in runes; a text table is not
// indented and pads every column.
func TestTable(t *testing.T) {
	tb := Table{Align: []Align{Left, Right}, Indent: true}
	tb.Row("mode", "cpus", "p50 µs")
	tb.Row("finelocking", "12", "4.00")
	tb.Row("µ", "1", "0.1")
	want := "" +
		"  mode         cpus  p50 µs\n" +
		"  finelocking    12    4.00\n" +
		"  µ               1     0.1\n"
	if got := write(t, &tb); got != want {
		t.Errorf("indented:\n%s\nwant:\n%s", got, want)
	}

	tb = Table{}
	tb.Row("rank", "change", "")
	tb.Row("1", "x", "")
	want = "" +
		"rank  change    \n" +
		"1     x         \n"
	if got := write(t, &tb); got != want {
		t.Errorf("text:\n%q\nwant:\n%q", got, want)
	}
}

// A ragged last column is written as it is, and not at all where it is
// empty; a shorter row writes the cells it has, its last text unpadded.
func TestTableRagged(t *testing.T) {
	tb := Table{Align: []Align{Left, Right}, Indent: true, Ragged: true}
	tb.Row("mode", "old", "verdict")
	tb.Row("a", "498.3 ± 1%", "~")
	tb.Row("geomean", "7", "")
	tb.Row("short")
	want := "" +
		"  mode            old  verdict\n" +
		"  a        498.3 ± 1%  ~\n" +
		"  geomean           7\n" +
		"  short\n"
	if got := write(t, &tb); got != want {
		t.Errorf("ragged:\n%s\nwant:\n%s", got, want)
	}
	tb = Table{Ragged: true}
	tb.Row("list", "every mode")
	tb.Line("    a line of its own, as long as it is")
	tb.Row("calibrate", "")
	want = "" +
		"list       every mode\n" +
		"    a line of its own, as long as it is\n" +
		"calibrate\n"
	if got := write(t, &tb); got != want {
		t.Errorf("ragged text:\n%q\nwant:\n%q", got, want)
	}
}

// Footnotes are numbered in the order first marked, each once.
func TestTableNotes(t *testing.T) {
	var tb Table
	a, b, a2 := tb.Mark("too few runs"), tb.Mark("wide"), tb.Mark("too few runs")
	if a != " ¹" || b != " ²" || a2 != a {
		t.Errorf("marks %q %q %q", a, b, a2)
	}
	for range 7 {
		tb.Mark(fmt.Sprint(len(tb.notes)))
	}
	if m := tb.Mark("the tenth"); m != " ¹⁰" {
		t.Errorf("tenth mark %q", m)
	}
	tb.Row("x" + a)
	if got := write(t, &tb); !strings.HasPrefix(got, "x ¹  \n¹ too few runs\n² wide\n³ 2\n") || !strings.HasSuffix(got, "¹⁰ the tenth\n") {
		t.Errorf("notes:\n%s", got)
	}
}

// Table lays out what text/tabwriter does, with tabs after every cell,
// in both of tabwriter's alignments.
func TestTableAsTabwriter(t *testing.T) {
	rows := [][]string{{"mode", "cpus", "throughput", "", "limited by"}, {"finelocking", "1", "120.0 lattes/s", "", "cpus+customers +100%"},
		{"a", "16", "5 kops/s", "x", "–"}, {"", "", "", "", ""}}
	for _, right := range []bool{false, true} {
		var want strings.Builder
		flags := uint(0)
		if right {
			flags = tabwriter.AlignRight
		}
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', flags)
		tb := Table{Align: []Align{Right}, Indent: right}
		if !right {
			tb.Align = nil
		}
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
			tb.Row(r...)
		}
		tw.Flush()
		if got := write(t, &tb); got != want.String() {
			t.Errorf("right %v:\n%q\ntabwriter:\n%q", right, got, want.String())
		}
	}
}

// TestRaggedCellWraps: a ragged table's last cell that would pass Columns
// wraps, each further line starting under it, and footnotes wrap too.
func TestRaggedCellWraps(t *testing.T) {
	long := strings.Repeat("word ", 40)
	tab := Table{Ragged: true}
	tab.Row("name", "text")
	tab.Row("advise", long+tab.Mark(long))
	var b strings.Builder
	if err := tab.Write(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) < 5 {
		t.Fatalf("%d lines, want the cell and its note wrapped:\n%s", len(lines), b.String())
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > Columns {
			t.Errorf("line of %d columns, over %d: %q", n, Columns, l)
		}
	}
	if !strings.HasPrefix(lines[2], strings.Repeat(" ", len("advise  "))+"word") {
		t.Errorf("a further line of the cell does not start under it: %q", lines[2])
	}
}
