package text

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// shopRow is a mode's measured and predicted series side by side.
type shopRow struct {
	// name heads its row, limitName its limit's: no reference said again.
	name, limitName string
	mode, unit      string
	measured, model map[int]analysis.RangeCell
	limits          []analysis.LimitSpan
}

// disturbedStar follows a disturbed measured figure, as in the full table.
const disturbedStar = "*"

// writeShop writes the shop's points on one screen: its modes by CPU
// counts, measured then predicted past them; then what limits each mode.
func writeShop(w io.Writer, a *analysis.Analysis) error {
	measured, model := rangesOf(a)
	rows := shopRows(measured, model)
	mCounts, pCounts, most := shopCounts(rows)
	p50Head, p50 := p50Column(rows, most)
	// The cells on the counts shown; a long name goes on a line of its own.
	cells := func(shown []int) [][]string {
		head := append([]string{rows[0].unit}, collect.Mapped(shown, strconv.Itoa)...)
		if p50 != nil {
			head = append(head, p50Head)
		}
		out := [][]string{head}
		for _, r := range rows {
			row := []string{r.name}
			if utf8.RuneCountInString(r.name) > longRowName {
				row[0] = ""
			}
			row = append(row, collect.Mapped(shown, func(n int) string { return r.cell(n, mCounts) })...)
			if p50 != nil {
				row = append(row, p50(r))
			}
			out = append(out, row)
		}
		return out
	}
	shown := shownCounts(mCounts, pCounts, priority(a, rows), func(counts []int) bool { return tableWidth(cells(counts)...) <= format.Width(w) })
	mShown := slices.DeleteFunc(slices.Clone(shown), func(n int) bool { return !slices.Contains(mCounts, n) })
	pShown := slices.DeleteFunc(slices.Clone(shown), func(n int) bool { return slices.Contains(mCounts, n) })

	table := cells(shown)
	fmt.Fprintln(w, groupsHead(columnWidths(table...), shown, mShown, pShown, model))
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Ragged: true, Width: math.MaxInt}
	for i, row := range table {
		if i > 0 && row[0] == "" {
			t.Line(rows[i-1].name)
		}
		if p50 == nil {
			row = append(row, "") // the last column, ragged, is not aligned
		}
		t.Row(row...)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	if err := writeLimits(w, rows, a.Verdict.Modes, len(pShown) == 0); err != nil {
		return err
	}
	writeShopNotes(w, rows, mShown, model)
	return nil
}

// cell is r's throughput on n CPUs: measured, else predicted, in
// parentheses where others were measured on n.
func (r shopRow) cell(n int, measured []int) string {
	if c, ok := r.measured[n]; ok {
		s := rateCell(c.Throughput)
		if c.Disturbed > 0 {
			s += disturbedStar
		}
		return s
	}
	c, ok := r.model[n]
	switch {
	case !ok:
		return "-"
	case slices.Contains(measured, n):
		return "(" + rateCell(c.Throughput) + ")"
	}
	return rateCell(c.Throughput)
}

// p50Column is the median latency's head and cell, where it says
// something, a row's own changes; nil where it does not.
func p50Column(rows []shopRow, most int) (string, func(shopRow) string) {
	largest, latency := 0.0, false
	for _, r := range rows {
		lo, hi := r.p50(most)
		largest, latency = max(largest, hi), latency || hi > (1+analysis.Near)*lo
	}
	if !latency {
		return "", nil
	}
	unit, perMs := format.TimeUnit(largest)
	return "p50 " + unit, func(r shopRow) string {
		lo, hi := r.p50(most)
		switch {
		case hi == 0:
			return "-" // not recorded
		case hi <= (1+analysis.Near)*lo:
			return format.Ms3(lo * perMs)
		}
		return format.Range(format.Ms3(lo*perMs), format.Ms3(hi*perMs))
	}
}

// writeShopNotes says what the table's marks mean, and whose costs its
// predictions rest on.
func writeShopNotes(w io.Writer, rows []shopRow, mShown []int, model *analysis.Ranges) {
	width := format.Width(w)
	disturbed, all := 0, 0
	for _, r := range rows {
		for _, c := range r.measured {
			disturbed, all = disturbed+c.Disturbed, all+c.Reps
		}
	}
	if disturbed > 0 {
		fmt.Fprintln(w, format.Wrap(fmt.Sprintf("%s disturbed (%d of %s): other processes took CPU while it was measured.",
			disturbedStar, disturbed, format.Count(all, "point")), width, "  "))
	}
	if slices.ContainsFunc(rows, func(r shopRow) bool {
		return slices.ContainsFunc(mShown, func(n int) bool { return strings.HasPrefix(r.cell(n, mShown), "(") })
	}) {
		fmt.Fprintln(w, format.Wrap("(…) predicted: the mode was not measured on that count.", width, "  "))
	}
	if model != nil && len(model.Calibrations) > 0 {
		fmt.Fprintln(w, format.Wrap(CostsLine(model.Calibrations...), width, "  "))
	}
}

// gap is the space format.Table leaves between two columns.
const gap = "  "

// longRowName is the longest row name that stays in its row.
const longRowName = 18

// shopRows pairs each measured row with the predicted row of its mode and load.
func shopRows(measured, model *analysis.Ranges) []shopRow {
	var out []shopRow
	at := func(r analysis.RangeRow) map[int]analysis.RangeCell {
		m := map[int]analysis.RangeCell{}
		for _, c := range r.Cells {
			m[c.CPUs] = c
		}
		return m
	}
	for _, t := range []*analysis.Ranges{measured, model} {
		if t == nil {
			continue
		}
		for _, r := range t.Rows {
			name := rowName(r)
			i := slices.IndexFunc(out, func(s shopRow) bool { return s.name == name })
			if i < 0 {
				plain := r
				plain.Races = false
				out = append(out, shopRow{name: name, limitName: rowName(plain), mode: r.Mode, unit: r.Unit})
				i = len(out) - 1
			}
			if t.Model {
				out[i].model = at(r)
			} else {
				out[i].measured = at(r)
			}
			if t.Model || out[i].limits == nil { // the model's, on every count
				out[i].limits = r.Limits
			}
		}
	}
	// A row counting something else says so.
	for i := range out {
		if out[i].unit != out[0].unit {
			out[i].name += " (" + out[i].unit + ")"
			out[i].limitName += " (" + out[i].unit + ")"
		}
	}
	return out
}

// p50 is the range of r's median latency measured, and predicted past most.
func (r shopRow) p50(most int) (lo, hi float64) {
	var p50s []float64
	for _, c := range r.measured {
		p50s = append(p50s, c.P50)
	}
	for n, c := range r.model {
		if n > most {
			p50s = append(p50s, c.P50)
		}
	}
	if len(p50s) == 0 {
		return 0, 0
	}
	return slices.Min(p50s), slices.Max(p50s)
}

// priority ranks the counts to keep: those of interest, powers of two,
// where a mode's limit starts, then the rest.
func priority(a *analysis.Analysis, rows []shopRow) func(n int) int {
	return func(n int) int {
		switch {
		case slices.ContainsFunc(a.Verdict.Counts, func(c analysis.Count) bool { return c.CPUs == n }):
			return 0
		case bits.OnesCount(uint(n)) == 1:
			return 1
		case slices.ContainsFunc(rows, func(r shopRow) bool {
			return slices.ContainsFunc(r.limits, func(l analysis.LimitSpan) bool { return l.From == n })
		}):
			return 2
		}
		return 3
	}
}

// shownCounts are the counts that fit, in order: the measured first, and
// within each side those of least rank, fewer CPUs first among equals.
func shownCounts(measured, predicted []int, rank func(int) int, fits func([]int) bool) []int {
	order := slices.Concat(measured, predicted)
	keep := slices.Clone(order)
	byRank := func(a, b int) int { return cmp.Compare(rank(a), rank(b)) }
	slices.SortStableFunc(keep[:len(measured)], byRank)
	slices.SortStableFunc(keep[len(measured):], byRank)
	n := len(keep)
	for n > 1 && !fits(inOrder(order, keep[:n])) {
		n--
	}
	return inOrder(order, keep[:n])
}

// inOrder is the elements of order that are in keep.
func inOrder(order, keep []int) []int {
	return slices.DeleteFunc(slices.Clone(order), func(n int) bool { return !slices.Contains(keep, n) })
}

// rateCell writes a throughput in a cell: "12.3k", "850", "8.5".
func rateCell(v float64) string {
	switch {
	case v >= 1e4:
		return siRate(v)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return format.Sig(v, 2)
}

// shopCounts are the CPU counts rows have measured, and the model's past
// the most measured (most): within them the measurements speak.
func shopCounts(rows []shopRow) (mCounts, pCounts []int, most int) {
	for _, r := range rows {
		mCounts = slices.AppendSeq(mCounts, maps.Keys(r.measured))
		pCounts = slices.AppendSeq(pCounts, maps.Keys(r.model))
	}
	slices.Sort(mCounts)
	mCounts = slices.Compact(mCounts)
	if len(mCounts) > 0 {
		most = mCounts[len(mCounts)-1]
	}
	slices.Sort(pCounts)
	pCounts = slices.Compact(slices.DeleteFunc(pCounts, func(n int) bool { return n <= most }))
	return mCounts, pCounts, most
}

// groupsHead names the groups of counts shown (measured, predicted) over
// their columns, of widths: where the figures come from.
func groupsHead(widths, shown, mShown, pShown []int, model *analysis.Ranges) string {
	head := ""
	for i, group := range [][]int{mShown, pShown} {
		if len(group) == 0 {
			continue
		}
		label := "measured"
		if i == 1 {
			label = "predicted by the model"
			if model.Sched != "" {
				label += " (" + model.Sched + ")"
			}
		}
		at := 0
		for _, cw := range widths[:1+slices.Index(shown, group[0])] {
			at += cw + len(gap)
		}
		head += strings.Repeat(" ", max(at-len(head), len(gap))) + label
	}
	return head
}

// writeLimits writes what limits each mode and its best change, alike
// modes together; measured: the model's profiles of measurements.
func writeLimits(w io.Writer, rows []shopRow, modes []analysis.ModeLimit, measured bool) error {
	profiled := slices.ContainsFunc(rows, func(r shopRow) bool {
		return slices.ContainsFunc(r.limits, func(l analysis.LimitSpan) bool { return LimitName(l.Of) != results.NoCausalProfile })
	})
	if !profiled {
		return nil
	}
	at := -1 // the count every mode's best change was tried on, where one is
	if len(modes) > 0 && !slices.ContainsFunc(modes, func(m analysis.ModeLimit) bool { return m.CPUs != modes[0].CPUs }) {
		at = modes[0].CPUs
	}
	head := "limited by; the best change"
	if measured {
		head = "limited by (model's profile); the best change"
	}
	if at > 0 {
		head += " on " + cpus(at)
	}
	type group struct {
		names []string
		says  string
	}
	var groups []*group
	nameWidth := len("mode")
	for _, r := range rows {
		says := r.says(modes, at)
		if n := utf8.RuneCountInString(r.limitName); n <= longRowName {
			nameWidth = max(nameWidth, n)
		}
		if i := slices.IndexFunc(groups, func(g *group) bool { return g.says == says }); i >= 0 {
			groups[i].names = append(groups[i].names, r.limitName)
			continue
		}
		groups = append(groups, &group{[]string{r.limitName}, says})
	}
	// Each group's names one under another, its words wrapped beside them.
	t := format.Table{Ragged: true, Width: math.MaxInt}
	t.Row(fmt.Sprintf("%-*s", nameWidth, "mode"), head)
	for _, g := range groups {
		lines := strings.Split(format.Wrap(g.says, format.Width(w)-nameWidth-len(gap), ""), "\n")
		names := g.names
		if slices.ContainsFunc(names, func(n string) bool { return utf8.RuneCountInString(n) > nameWidth }) {
			for _, n := range names {
				t.Line(n)
			}
			names = nil
		}
		n := max(len(lines), len(names))
		names, lines = append(names, make([]string, n-len(names))...), append(lines, make([]string, n-len(lines))...)
		for i := range n {
			t.Row(names[i], lines[i])
		}
	}
	return t.Write(w)
}

// says is what limits r's mode (limitWords) and its best change with its
// gain, on how many CPUs where at, the count every mode's, is -1.
func (r shopRow) says(modes []analysis.ModeLimit, at int) string {
	s := limitWords(r.limits)
	i := slices.IndexFunc(modes, func(m analysis.ModeLimit) bool { return m.Mode == r.mode })
	if i < 0 || modes[i].Races || modes[i].Limit.Change == nil || len(r.limits) == 0 {
		return s
	}
	m := modes[i]
	change := ChangeText(*m.Limit.Change)
	if m.Limit.Combined && r.limits[len(r.limits)-1].Of.Same(m.Limit.Of) {
		change = "relieving them all at once" // the limit it names, its every resource
	}
	s += "; " + change + " " + format.Gain(m.Limit.Gain) + Hedge(m.Caveats)
	if at < 0 {
		s += " on " + cpus(m.CPUs)
	}
	return s
}

// ModeSummaries are what the answer says of each mode of the shop, its best
// change's CPUs said, by mode: the page's summaries.
func ModeSummaries(a *analysis.Analysis) map[string]string {
	rows := shopRows(rangesOf(a))
	out := map[string]string{}
	for _, r := range rows {
		if _, ok := out[r.mode]; !ok {
			out[r.mode] = r.says(a.Verdict.Modes, -1)
		}
	}
	return out
}

// rangesOf are a's compact tables of measured and of predicted points.
func rangesOf(a *analysis.Analysis) (measured, model *analysis.Ranges) {
	for i := range a.Ranges {
		if a.Ranges[i].Model {
			model = &a.Ranges[i]
		} else {
			measured = &a.Ranges[i]
		}
	}
	return measured, model
}

// limitWords says what limits a series: "the grinder from 4 CPUs" (more
// CPUs helping before), "the A on 1–3 CPUs, the B from 4 CPUs".
func limitWords(spans []analysis.LimitSpan) string {
	if len(spans) > 1 && spans[0].Scales {
		spans = spans[1:]
	} else if len(spans) == 1 {
		return LimitName(spans[0].Of)
	}
	var parts []string
	for i, s := range spans {
		if i == len(spans)-1 {
			parts = append(parts, LimitName(s.Of)+" from "+cpus(s.From))
		} else {
			parts = append(parts, LimitName(s.Of)+" on "+format.Range(strconv.Itoa(s.From), strconv.Itoa(s.To))+" CPUs")
		}
	}
	return strings.Join(parts, ", ")
}

// CostsLine names the runtime costs a prediction rests on: "Runtime costs: …".
func CostsLine(cals ...results.Calibration) string {
	return "Runtime costs: " + strings.Join(collect.Mapped(cals, CostsWords), "; ") + "."
}

// CostsWords names runtime costs briefly: "vm's, measured 2026-11-25".
func CostsWords(c results.Calibration) string {
	if c.Host == "none" {
		return "given as flags"
	}
	s := cmp.Or(c.Host, "an unnamed host") + "'s"
	if !c.Date.IsZero() && (c.SetAside == nil || !c.SetAside.Reference) {
		s += ", measured " + c.Date.UTC().Format("2006-01-02")
	}
	if c.Busy() {
		s += " on a busy machine: not to be trusted"
	}
	if len(c.Given) > 0 {
		s += ", " + strings.Join(collect.Mapped(c.Given, func(f string) string { return "--" + f }), ", ") + " given"
	}
	switch a := c.SetAside; {
	case a != nil && a.Reference:
		s += "; this machine's were measured busy"
	case a != nil:
		s += ", its last quiet ones; a busy calibration set aside"
	}
	return s
}
