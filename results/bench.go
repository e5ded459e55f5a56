package results

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/brewput/brewput/internal/format"
	"golang.org/x/perf/benchfmt"
)

// The pkg configuration of the coffee shop's bench lines: it is what is
// measured.
const shopPkg = "github.com/brewput/brewput/coffee"

// The base names of the benchmarks brewput writes for points that are not
// Go benchmarks themselves; ReadBench reads each back as its kind.
const (
	benchShop  = "Coffee"
	benchLab   = "Lab"
	benchStudy = "Study"
)

// benchUnit is a unit of a bench line and whether higher or lower values
// are better in it ("" for neither), which benchstat learns from a Unit line.
type benchUnit struct{ unit, better string }

// The units of a point's latencies and CPU use in its bench line.
const (
	unitP50     = "p50-ms"
	unitP95     = "p95-ms"
	unitP99     = "p99-ms"
	unitMean    = "mean-ms"
	unitCPUUtil = "cpu-util"
)

// benchValues are the units and values of p's bench line after its ns/op:
// a Go benchmark's own, or the throughput, latencies and CPU use of any
// other point, and a lab's metrics.
func benchValues(p Point) ([]benchUnit, []float64) {
	if p.Kind == KindBench {
		var units []benchUnit
		var values []float64
		for _, v := range p.Bench.Values {
			if v.Unit != "ns/op" {
				units = append(units, benchUnit{v.Unit, ""})
				values = append(values, v.Value)
			}
		}
		return units, values
	}
	unit := benchToken(p.Unit, false)
	if unit == "" {
		unit = "ops/s"
	}
	units := []benchUnit{{unit, "higher"},
		{unitP50, "lower"}, {unitP95, "lower"}, {unitP99, "lower"}, {unitMean, "lower"},
		{unitCPUUtil, ""}}
	values := []float64{p.Throughput, p.Latency.P50, p.Latency.P95, p.Latency.P99, p.Latency.Mean, p.Util}
	if p.Kind == KindLab {
		for _, k := range slices.Sorted(maps.Keys(p.Lab.Metrics)) { // a lab's own measures, as units of their name
			units = append(units, benchUnit{benchToken(string(k), false), ""})
			values = append(values, p.Lab.Metrics[k])
		}
	}
	return units, values
}

// nsPerOp is the time per operation of p's bench line: a Go benchmark's
// own, or the window over the operations.
func nsPerOp(p Point) float64 {
	if v, ok := p.Bench.Value("ns/op"); ok {
		return v
	}
	return float64(p.Dur) / float64(p.Ops)
}

// WriteBench writes points in the Go benchmark format, with benchfmt's
// Writer, so that benchstat reads them and ReadBench reads them back:
//
//	BenchmarkCoffee/mode=finelocking/par=2-2 1000 2.004008e+06 ns/op 499 lattes/s 4.012 p50-ms …
//
// The name's -N suffix is the CPU count, as go test writes GOMAXPROCS
// (none for 1); the rest holds the configuration as key=value parts
// (mode, par, an open loop's rate and maxq, the steps that are not the
// default, source=model and the policy for a prediction), so that
// repetitions share a name and a prediction never has a measurement's. A
// lab's point is BenchmarkLab/lab=…/variant=…/par=…, a study's
// BenchmarkStudy/study=…/variant=…/par=…, a Go benchmark's as go test
// wrote it. The iterations are the operations, ns/op the window over
// them; the throughput, latencies in ms (p50-ms, …) and cpu-util follow.
// Unit lines say which way is better; configuration lines (goos, goarch,
// pkg, cpu, and source: the point's Origin) come where they change. A
// point with no operations is left out, and a disturbed one marked, each
// with a comment line.
func WriteBench(w io.Writer, points []Point) error {
	bw := bufio.NewWriter(w)
	fw := benchfmt.NewWriter(bw)
	described := map[string]bool{}
	for _, p := range points {
		if p.Ops <= 0 {
			continue
		}
		if err := p.CheckFinite(); err != nil {
			return err
		}
		units, _ := benchValues(p)
		for _, u := range units {
			if u.better == "" || described[u.unit] {
				continue
			}
			described[u.unit] = true
			rec := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.unit, Key: "better"}, OrigUnit: u.unit, Value: u.better}
			if err := fw.Write(rec); err != nil {
				return err
			}
		}
	}
	for _, p := range points {
		name := benchName(p)
		if p.Ops <= 0 {
			// The Writer writes each record at once, so this comes in
			// its place among them.
			fmt.Fprintf(bw, "# Benchmark%s: no operations in the window (%d errors, %d drops); left out\n", name, p.Errors, p.Drops)
			continue
		}
		if p.IsDisturbed() {
			// benchstat passes over a comment; a reader sees the point is
			// there, marked.
			fmt.Fprintf(bw, "# Benchmark%s: disturbed: %s while it was measured\n", name, p.Interference())
		}
		res := &benchfmt.Result{Name: benchfmt.Name(name), Iters: int(p.Ops)}
		if p.Kind == KindBench {
			res.Iters = int(p.Bench.Iters)
		}
		for _, kv := range benchConfig(p) {
			if kv[1] != "" {
				res.Config = append(res.Config, benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true})
			}
		}
		res.Values = append(res.Values, benchfmt.Value{Value: round6(nsPerOp(p)), Unit: "ns/op"})
		units, values := benchValues(p)
		for i, u := range units {
			res.Values = append(res.Values, benchfmt.Value{Value: round6(values[i]), Unit: u.unit})
		}
		if err := fw.Write(res); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// benchConfig is the configuration of p's bench line: the machine's system
// and CPU, the package (the shop's, or a Go benchmark's own), and where it
// comes from, each on one line whatever the host reported.
func benchConfig(p Point) [][2]string {
	pkg := ""
	switch p.Kind {
	case KindBench:
		pkg = p.Bench.Pkg
	case KindShop:
		pkg = shopPkg
	}
	config := [][2]string{
		{"goos", p.Host.OS}, {"goarch", p.Host.Arch}, {"pkg", pkg},
		{"cpu", p.Host.CPUModel}, {"source", p.Origin()},
	}
	for i := range config {
		config[i][1] = strings.Join(strings.Fields(config[i][1]), " ")
	}
	return config
}

// benchName is the benchmark name of p's configuration, without the
// "Benchmark" prefix, with the CPU count as the -N suffix unless it is 1.
// The last part before the suffix is always key=value, so that it never
// ends in -<digits> (think of mode multi-2), which benchfmt would take for
// the suffix where there is none.
func benchName(p Point) string {
	suffix := ""
	if p.CPUs != 1 {
		suffix = "-" + strconv.Itoa(p.CPUs)
	}
	var parts []string
	switch p.Kind {
	case KindBench:
		return BenchMode(p.Bench.Name) + suffix
	case KindLab:
		parts = []string{benchLab, "lab=" + benchToken(p.Lab.Name, true), "variant=" + benchToken(p.Lab.Variant, true),
			"par=" + strconv.Itoa(p.Par)}
		return strings.Join(parts, "/") + suffix
	case KindStudy:
		parts = []string{benchStudy, "study=" + benchToken(p.Study.Name, true), "variant=" + benchToken(p.Mode, true)}
	default:
		parts = []string{benchShop, "mode=" + benchToken(p.Mode, true)}
	}
	parts = append(parts, "par="+strconv.Itoa(p.Par))
	if p.Rate > 0 {
		parts = append(parts, "rate="+strconv.FormatFloat(p.Rate, 'f', -1, 64), "maxq="+strconv.Itoa(p.MaxQ))
	}
	if p.Shop != nil {
		for _, kv := range p.Shop.Steps.NonDefault() {
			parts = append(parts, benchToken(kv, true))
		}
	}
	if p.IsModel() {
		parts = append(parts, "source="+SourceModel)
		if p.Sched != "" {
			parts = append(parts, "sched="+benchToken(p.Sched, true))
		}
	}
	return strings.Join(parts, "/") + suffix
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

// round6 rounds v to six significant digits, enough for any statistics
// and still readable.
func round6(v float64) float64 {
	r, err := strconv.ParseFloat(format.Sig(v, 6), 64)
	if err != nil {
		return v
	}
	return r
}

// NonDefault returns a key=value label, such as "grind=2ms" or
// "clock=cpu", for each setting in s that differs from DefaultSteps (an
// empty clock is taken for wall): none for the defaults, the usual case,
// so that names made from it stay short. Steps that are all zero are a
// YAML system's, and have none either.
func (s Steps) NonDefault() []string {
	if s == (Steps{}) {
		return nil
	}
	def := DefaultSteps()
	var labels []string
	for _, st := range []struct {
		key      string
		d, deflt time.Duration
	}{{"grind", s.Grind, def.Grind}, {"press", s.Press, def.Press}, {"steam", s.Steam, def.Steam}, {"combine", s.Combine, def.Combine}, {"jitter", s.Jitter, 0}} {
		if st.d != st.deflt {
			labels = append(labels, st.key+"="+strconv.FormatFloat(Ms(st.d), 'f', -1, 64)+"ms")
		}
	}
	if s.Clock != "" && s.Clock != def.Clock {
		labels = append(labels, "clock="+s.Clock)
	}
	return labels
}
