package verdict

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// LabAnswer is a lab's answer, computed from its points and its figure's
// numbers alike for every lab: on each CPU count of interest, the variant that
// makes the most and the one that makes the least; then the figure's
// numbers, what its chart draws, as a small table.
type LabAnswer struct {
	// Lab is the lab's name, Origins where its points were measured.
	Lab     string
	Origins []string
	// Points counts the lab's points, Disturbed those other processes
	// took CPU from; CPUs are their CPU counts, ascending.
	Points, Disturbed int
	CPUs              []int
	// Sentences say, for each CPU count of interest (and unit, where the
	// variants count different things), what makes the most and the
	// least.
	Sentences []string
	// Table is the figure's numbers: a row per line of the chart, a
	// column per x; empty where the figure draws nothing.
	Table FigureTable
}

// FigureTable is a lab figure's numbers as a table: Title says what they
// are; Head names the columns, the x values (none for bars: a bar's one
// number is what Title says); each row is a line's name and its y at each
// x, "-" where it has none.
type FigureTable struct {
	Title string
	Head  []string
	Rows  [][]string
}

// Lab answers a lab's points (those of the lab named name), table being
// its figure's numbers (package report reads them from its chart).
func Lab(name string, points []results.Point, table FigureTable) LabAnswer {
	a := LabAnswer{Lab: name}
	var first []results.Point // the first repetition of each run
	for _, p := range points {
		if p.Lab.Name != name || p.Rep > 1 {
			continue
		}
		first = append(first, p)
		if !slices.Contains(a.Origins, p.Origin()) {
			a.Origins = append(a.Origins, p.Origin())
		}
		if !slices.Contains(a.CPUs, p.CPUs) {
			a.CPUs = append(a.CPUs, p.CPUs)
		}
		if p.IsDisturbed() {
			a.Disturbed++
		}
	}
	a.Points = len(first)
	slices.Sort(a.CPUs)
	counts := countsOfInterest(a.CPUs)
	for i := len(counts) - 1; i >= 0; i-- { // the most CPUs first
		a.Sentences = append(a.Sentences, labCount(first, counts[i])...)
	}
	a.Table = table
	return a
}

// labCount says what CPU count n shows of points: for each unit, in the
// order the points first count it, the variant that makes the most and
// the one that makes the least.
func labCount(points []results.Point, n int) []string {
	units, byUnit := groupBy(points, func(p results.Point) (string, bool) { return p.Unit, p.CPUs == n && p.Throughput > 0 })
	var out []string
	for _, u := range units {
		ps := byUnit[u]
		what := ""
		if len(units) > 1 {
			what = " " + u
		}
		// A variant measured at several loads (clients, writers) is
		// named with its load.
		loads := map[string]int{}
		for _, p := range ps {
			loads[p.Variant]++
		}
		name := func(p results.Point) string {
			s := p.Variant
			if loads[p.Variant] > 1 {
				s += fmt.Sprintf(" (par %d)", p.Par)
			}
			if p.IsDisturbed() {
				s += " (disturbed)"
			}
			return s
		}
		hi := slices.MaxFunc(ps, func(a, b results.Point) int { return cmpFloat(a.Throughput, b.Throughput) })
		lo := slices.MinFunc(ps, func(a, b results.Point) int { return cmpFloat(a.Throughput, b.Throughput) })
		// The CPU time is said in CPUs, not as a share of n: the
		// process's threads outside GOMAXPROCS (the runtime's own, those
		// in system calls) can take more than n CPUs' worth.
		figures := func(p results.Point) string {
			used := format.Number(p.CPUUsed) + " CPUs"
			if used == "1 CPUs" {
				used = "1 CPU"
			}
			return fmt.Sprintf("%s at a median %s, keeping %s busy", format.Rate(p.Throughput, p.Unit), format.Wait(p.Latency.P50), used)
		}
		var s strings.Builder
		fmt.Fprintf(&s, "On %s, ", format.Count(n, "CPU"))
		if len(ps) == 1 {
			fmt.Fprintf(&s, "%s makes %s.", name(hi), figures(hi))
		} else {
			fmt.Fprintf(&s, "%s makes the most%s, %s; %s the least, %s (×%s).", name(hi), what, figures(hi), name(lo),
				format.Rate(lo.Throughput, lo.Unit), format.Digits(lo.Throughput/hi.Throughput, 3))
		}
		out = append(out, s.String())
	}
	return out
}

// Write writes the answer for a terminal: a line saying what was
// measured, the sentences, then the figure's table under its title.
func (a LabAnswer) Write(w io.Writer) error {
	fmt.Fprintf(w, "lab %s, measured on %s: %s on %s", a.Lab, strings.Join(a.Origins, ", "), format.Count(a.Points, "point"), cpuList(a.CPUs))
	if a.Disturbed > 0 {
		fmt.Fprintf(w, ", %d disturbed (other processes took CPU while they ran)", a.Disturbed)
	}
	fmt.Fprintln(w)
	for _, s := range a.Sentences {
		fmt.Fprintln(w, format.Wrap(s, 110, "  "))
	}
	if len(a.Table.Rows) == 0 {
		return nil
	}
	fmt.Fprintln(w, format.Wrap(a.Table.Title+":", 110, ""))
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true}
	if len(a.Table.Head) > 0 {
		t.Row(append([]string{""}, a.Table.Head...)...)
	}
	for _, r := range a.Table.Rows {
		t.Row(r...)
	}
	return t.Write(w)
}

// cpuList writes CPU counts as "1, 2 and 4 CPUs", "1 CPU".
func cpuList(counts []int) string {
	if len(counts) == 1 {
		return format.Count(counts[0], "CPU")
	}
	parts := make([]string, len(counts))
	for i, n := range counts {
		parts[i] = itoa(n)
	}
	return format.JoinAnd(parts) + " CPUs"
}
