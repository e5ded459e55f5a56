package results

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// benchPkg is the pkg configuration of every bench line: the coffee shop is
// what is measured.
const benchPkg = "github.com/brewput/brewput/coffee"

// benchUnit is a unit of a bench line and whether higher or lower values
// are better in it ("" for neither), which benchstat learns from a Unit line.
type benchUnit struct{ unit, better string }

// benchValues are the units and values of p's bench line after its ns/op.
func benchValues(p Point) ([]benchUnit, []float64) {
	unit := benchToken(p.Unit, false)
	if unit == "" {
		unit = "ops/s"
	}
	units := []benchUnit{{unit, "higher"},
		{"p50-ms", "lower"}, {"p95-ms", "lower"}, {"p99-ms", "lower"}, {"mean-ms", "lower"},
		{"cpu-util", ""}}
	values := []float64{p.Throughput, p.Latency.P50, p.Latency.P95, p.Latency.P99, p.Latency.Mean, p.Util}
	if p.Kind() == KindLab {
		for _, k := range slices.Sorted(maps.Keys(p.Metrics)) { // a lab's own measures, as units of their name
			units = append(units, benchUnit{benchToken(string(k), false), ""})
			values = append(values, p.Metrics[k])
		}
	}
	return units, values
}

// WriteBench writes points in the Go benchmark format
// (https://go.dev/design/14313-benchmark-format), so that benchstat and the
// other golang.org/x/perf tools read brewput results unchanged:
//
//	BenchmarkCoffee/mode=finelocking/cpus=2/par=2  1000  2004008 ns/op  499 lattes/s  4.012 p50-ms  …
//
// The name holds the configuration as key=value parts (mode, cpus, par; rate
// and maxq in an open loop; any step setting that is not the default, see
// Steps.NonDefault; source=model and the scheduling policy for a model
// point), so the repetitions of one configuration share a name and
// benchstat takes them as samples of one benchmark, and a model's
// prediction never has a measurement's name: benchstat does not take the
// two for samples of one benchmark, whatever it is told to -ignore. The iterations are
// the operations in the window and ns/op the window's length over them; the
// throughput, the p50, p95, p99 and mean latency in ms (units p50-ms, …) and
// the CPU utilization as a fraction of the allowed CPUs (cpu-util) follow.
//
// Configuration lines (goos, goarch, pkg, cpu, source) come before the first
// point and again, only those that changed, before a point whose differ:
// benchfmt applies them to the results that follow. The source is the
// point's Origin, the host name for a measurement. benchstat makes a
// separate table for each distinct configuration, so files from different
// machines compare with benchstat -ignore source,cpu.
//
// A point with no operations has no time per operation and no latencies; it
// is left out, with a comment line saying so, rather than written as zeros
// that would read as the fastest run of all. A disturbed point (see
// Point.IsDisturbed) is written, after a comment line saying so.
func WriteBench(w io.Writer, points []Point) error {
	bw := bufio.NewWriter(w)
	width := 0
	for _, p := range points {
		width = max(width, len(benchName(p)))
	}
	var config [][2]string // as last written; nil before the first point
	described := map[string]bool{}
	for _, p := range points {
		config = writeBenchConfig(bw, config, p)
		name := benchName(p)
		if p.Ops <= 0 {
			fmt.Fprintf(bw, "# %s: no operations in the window (%d errors, %d drops); left out\n", name, p.Errors, p.Drops)
			continue
		}
		if err := p.CheckFinite(); err != nil {
			return err
		}
		if p.IsDisturbed() {
			// benchstat passes over a comment; a reader sees the point is
			// there, marked.
			fmt.Fprintf(bw, "# %s: disturbed: %s while it was measured\n", name, p.Interference())
		}
		units, values := benchValues(p)
		for _, u := range units {
			if u.better != "" && !described[u.unit] {
				fmt.Fprintf(bw, "Unit %s better=%s\n", u.unit, u.better)
				described[u.unit] = true
			}
		}
		fmt.Fprintf(bw, "%-*s\t%d\t%s ns/op", width, name, p.Ops, benchNum(p.DurS*1e9/float64(p.Ops)))
		for i, v := range values {
			fmt.Fprintf(bw, "\t%s %s", benchNum(v), units[i].unit)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// writeBenchConfig writes the configuration lines of p that differ from
// last, all non-empty ones when last is nil, and returns p's configuration.
func writeBenchConfig(w io.Writer, last [][2]string, p Point) [][2]string {
	config := [][2]string{
		{"goos", p.Host.OS}, {"goarch", p.Host.Arch}, {"pkg", benchPkg},
		{"cpu", p.Host.CPUModel}, {"source", p.Origin()},
	}
	changed := false
	for i, kv := range config {
		kv[1] = strings.Join(strings.Fields(kv[1]), " ") // one line, whatever the host reported
		config[i] = kv
		switch {
		case last == nil && kv[1] == "":
		case last == nil || kv[1] != last[i][1]:
			if last != nil && !changed {
				fmt.Fprintln(w) // sets the new configuration apart
			}
			changed = true
			// An empty value ("key:") unsets the key, as benchfmt reads it.
			fmt.Fprintf(w, "%s: %s\n", kv[0], kv[1])
		}
	}
	return config
}

// benchName is the benchmark name of p's configuration. Its last part is
// always key=value, so that it never ends in -<digits>, which benchfmt
// would take for the GOMAXPROCS suffix (think of mode multi-2).
func benchName(p Point) string {
	if p.Kind() == KindLab {
		return strings.Join([]string{"BenchmarkLab", "lab=" + benchToken(p.Lab.Name, true), "variant=" + benchToken(p.Variant, true),
			"cpus=" + strconv.Itoa(p.CPUs), "par=" + strconv.Itoa(p.Par)}, "/")
	}
	parts := []string{"BenchmarkCoffee", "mode=" + benchToken(p.Mode, true), "cpus=" + strconv.Itoa(p.CPUs), "par=" + strconv.Itoa(p.Par)}
	if p.Rate > 0 {
		parts = append(parts, "rate="+strconv.FormatFloat(p.Rate, 'f', -1, 64), "maxq="+strconv.Itoa(p.MaxQ))
	}
	if p.Shop != nil {
		for _, kv := range p.Steps.NonDefault() {
			parts = append(parts, benchToken(kv, true))
		}
	}
	if p.IsModel() {
		parts = append(parts, "source="+SourceModel)
		if p.Sched != "" {
			parts = append(parts, "sched="+benchToken(p.Sched, true))
		}
	}
	return strings.Join(parts, "/")
}

// benchToken makes s fit in a bench line as one field: no spaces, which
// end a field, and in a name part (namePart) no slashes, which start the
// next part. Units keep theirs: "lattes/s".
func benchToken(s string, namePart bool) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || namePart && r == '/' {
			return '_'
		}
		return r
	}, s)
}

// benchNum formats v with six significant digits and no exponent, enough
// for any statistics and still readable.
func benchNum(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	intDigits := int(math.Floor(math.Log10(math.Abs(v)))) + 1
	s := strconv.FormatFloat(v, 'f', max(0, 6-intDigits), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// NonDefault returns a key=value label, such as "grind=2ms" or
// "clock=cpu", for each setting in s that differs from brewput's defaults:
// every step 1 ms, no jitter, the wall clock (coffee.DefaultSteps and the
// run flags' defaults). It returns none for the defaults, the usual case, so
// that names made from it stay short; an empty clock is taken for wall.
func (s Steps) NonDefault() []string {
	var labels []string
	for _, st := range []struct {
		key     string
		ms, def float64
	}{{"grind", s.GrindMs, 1}, {"press", s.PressMs, 1}, {"steam", s.SteamMs, 1}, {"latte", s.LatteMs, 1}, {"jitter", s.JitterMs, 0}} {
		if st.ms != st.def {
			labels = append(labels, st.key+"="+strconv.FormatFloat(st.ms, 'f', -1, 64)+"ms")
		}
	}
	if s.Clock != "" && s.Clock != "wall" {
		labels = append(labels, "clock="+s.Clock)
	}
	return labels
}
