package results

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// writeBenchTable writes Go benchmarks' points: the benchmark, its CPUs
// (GOMAXPROCS), the repetition, the throughput, and each unit of their
// lines in a column of its own, in the order they first come (ns/op,
// the latencies bench.Parallel reports, B/op, allocs/op, the benchmarks'
// own), "-" where a benchmark has none. The package is named above the
// table, or in a column where there are several.
func writeBenchTable(w io.Writer, points []Point) error {
	var units []string
	width, reps, sources, pkgs := len("benchmark"), false, map[string]bool{}, map[string]bool{}
	for _, p := range points {
		pkgs[p.Bench.Pkg] = true
		width = max(width, len(p.Mode))
		reps = reps || p.Rep > 0
		sources[p.Origin()] = true
		for _, v := range p.Bench.Values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{fmt.Sprintf("%-*s", width, "benchmark"), "cpus"}
	if reps {
		head = append(head, "rep")
	}
	head = append(head, "throughput")
	head = append(head, units...)
	if len(sources) > 1 {
		head = append(head, "source")
	}
	if len(pkgs) > 1 {
		head = append(head, "pkg")
	} else if pkg := points[0].Bench.Pkg; pkg != "" {
		fmt.Fprintf(w, "pkg: %s\n", pkg)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, p := range points {
		row := []string{fmt.Sprintf("%-*s", width, p.Mode), strconv.Itoa(p.CPUs)}
		if reps {
			row = append(row, strconv.Itoa(max(p.Rep, 1)))
		}
		row = append(row, FormatRate(p.Throughput, p.Unit))
		for _, u := range units {
			v, ok := p.Bench.Value(u)
			if !ok {
				row = append(row, "-")
				continue
			}
			row = append(row, strconv.FormatFloat(v, 'g', 4, 64))
		}
		if len(sources) > 1 {
			row = append(row, OriginLabel(p))
		}
		if len(pkgs) > 1 {
			row = append(row, p.Bench.Pkg)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}
