package text

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// Ranked is what a ranking says, in a sentence: which makes the most, or
// that none clearly does where bands overlap, and the others after it.
func Ranked(r results.Ranking) string {
	s := "At " + format.Count(r.CPUs, "CPU")
	if r.Group != "" {
		s += ", of " + r.Group
	}
	first, rest := r.Ranked[0], r.Ranked[1:]
	switch {
	case len(rest) == 0:
		return fmt.Sprintf("%s, %s makes %s.", s, first.Name, amount(first, r.Unit))
	case r.Clear:
		s += fmt.Sprintf(", %s makes the most: %s", first.Name, amount(first, r.Unit))
	default:
		var tied []string
		for _, o := range rest {
			if slices.Contains(r.Overlap, o.Mode) {
				tied = append(tied, fmt.Sprintf("%s %s", o.Name, amount(o, "")))
			}
		}
		s += fmt.Sprintf(", no clear winner: %s makes %s, %s, and their bands overlap", first.Name, amount(first, r.Unit), format.JoinAnd(tied))
		if why := widestWhy(r); why != "" {
			s += " (" + why + ")"
		}
		rest = slices.DeleteFunc(slices.Clone(rest), func(o results.Ranked) bool { return slices.Contains(r.Overlap, o.Mode) })
	}
	if len(rest) == 0 {
		return s + "."
	}
	then := collect.Mapped(rest, func(o results.Ranked) string { return o.Name + " " + amount(o, "") })
	return s + "; then " + format.JoinAnd(then) + "."
}

// amount is a ranked variant's throughput and band: "380M ops/s
// (250M–520M)", the unit left out where "".
func amount(r results.Ranked, unit string) string {
	s := format.Number(r.Throughput)
	if unit != "" {
		s += " " + unit
	}
	if r.Band[0] != r.Band[1] {
		s += fmt.Sprintf(" (%s–%s)", format.Number(r.Band[0]), format.Number(r.Band[1]))
	}
	return s
}

// widestWhy says why the widest band of those that overlap the first is
// wide, where its kind says: "" where it is not partly shared.
func widestWhy(r results.Ranking) string {
	widest, width := results.Ranked{}, 0.0
	for _, o := range r.Ranked {
		if o.Mode == r.Ranked[0].Mode || slices.Contains(r.Overlap, o.Mode) {
			if w := o.Band[1] / o.Band[0]; o.Band[0] > 0 && w > width {
				widest, width = o, w
			}
		}
	}
	if widest.Kind != "partly shared" {
		return ""
	}
	return fmt.Sprintf("%s is partly shared: its band runs from a line every core writes to a cost each operation pays apart", widest.Name)
}

// SayRankings keeps in each ranking what it says (Ranked), and where on
// fewer CPUs another of its family clearly makes the most.
func SayRankings(rankings []results.Ranking) {
	for i := range rankings {
		rankings[i].Said = Ranked(rankings[i]) + otherFirst(rankings[i], rankings)
	}
}

// WriteRanked writes what the rankings on the most CPUs say (SayRankings),
// a sentence each of those that rank two or more (of each where none does).
func WriteRanked(w io.Writer, rankings []results.Ranking) {
	SayRankings(rankings)
	last, most := 0, 0
	for _, r := range rankings {
		last = max(last, r.CPUs)
	}
	for _, r := range rankings {
		if r.CPUs == last {
			most = max(most, len(r.Ranked))
		}
	}
	for _, r := range rankings {
		if r.CPUs == last && (len(r.Ranked) > 1 || most == 1) {
			fmt.Fprintln(w, format.Wrap(r.Said, format.Width(w), ""))
		}
	}
}

// otherFirst says where on fewer CPUs another of r's group clearly makes
// the most: " On 2 CPUs, mutex makes the most."; "" where none does.
func otherFirst(r results.Ranking, rankings []results.Ranking) string {
	for _, o := range rankings {
		if o.Group == r.Group && o.CPUs < r.CPUs && o.Clear && len(o.Ranked) > 1 && o.Ranked[0].Mode != r.Ranked[0].Mode {
			return fmt.Sprintf(" On %s, %s makes the most.", format.Count(o.CPUs, "CPU"), o.Ranked[0].Name)
		}
	}
	return ""
}

// WriteRanking writes the rankings as a table, a row per variant, then
// what each was read as and how far such answers held (checked).
func WriteRanking(w io.Writer, rankings []results.Ranking, base map[string]float64, checked map[string]Checked, shown, measuredHere []int) error {
	at := map[int]map[string]results.Ranked{}
	var counts []int // those shown that any was ranked on
	for _, r := range rankings {
		if at[r.CPUs] == nil {
			at[r.CPUs] = map[string]results.Ranked{}
		}
		for _, v := range r.Ranked {
			at[r.CPUs][v.Mode] = v
		}
	}
	for _, n := range shown {
		if n > 1 && at[n] != nil {
			counts = append(counts, n)
		}
	}
	if len(counts) == 0 {
		return nil
	}
	last := counts[len(counts)-1]
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true, Width: format.Width(w)}
	head := []string{rankings[0].Unit, "1 CPU"}
	marked := false
	for _, n := range counts {
		h := strconv.Itoa(n)
		if slices.Contains(measuredHere, n) {
			h, marked = h+"*", true
		}
		head = append(head, h)
	}
	t.Row(append(head, "band at "+strconv.Itoa(last))...)
	kinds := map[string][]string{}
	for _, r := range rankings {
		if r.CPUs != last {
			continue
		}
		switch {
		case r.Group != "":
			t.Line(r.Group + ":")
		case len(at[last]) > len(r.Ranked): // beside families, those of none
			t.Line("the rest:")
		}
		for _, v := range r.Ranked {
			row := []string{v.Name, format.Number(base[v.Mode])}
			for _, n := range counts {
				cell := "-"
				if o, ok := at[n][v.Mode]; ok {
					cell = format.Number(o.Throughput)
				}
				row = append(row, cell)
			}
			t.Row(append(row, format.Number(v.Band[0])+"–"+format.Number(v.Band[1]))...)
			if v.Kind != "" {
				kinds[v.Kind] = append(kinds[v.Kind], v.Mode)
			}
		}
	}
	if err := t.Write(w); err != nil {
		return err
	}
	if marked {
		fmt.Fprintln(w, "  * measured here (the runs' median; the prediction stands on it)")
	}
	var read []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		s := k
		if c := checked[k]; c.Points > 0 {
			s += fmt.Sprintf(" (where checked, its bands held %d of %d points)", c.Held, c.Points)
		}
		read = append(read, s+": "+strings.Join(kinds[k], ", "))
	}
	if len(read) > 0 {
		_, err := fmt.Fprintln(w, format.Wrap("Read as "+strings.Join(read, "; ")+".", format.Width(w), ""))
		return err
	}
	return nil
}
