package results

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"
)

// shopPkg is the pkg of the coffee shop's bench lines.
const shopPkg = "github.com/brewput/brewput/coffee"

// benchBase is the base name of the benchmarks brewput writes for points
// of kind k that are not Go benchmarks themselves.
func benchBase(k Kind) string {
	return map[Kind]string{KindShop: "Coffee", KindLab: "Lab", KindStudy: "Study"}[k]
}

// benchLabel is a key=value part of a bench line's name and the field of
// a point it holds: a *string, *int, *float64 or millis. omit leaves it out
// of a name, where it says nothing.
type benchLabel struct {
	key  string
	ptr  any
	omit bool
}

// benchLabels are the labels of p's name after its base name, in order,
// as WriteBench writes and ReadBench reads them.
func benchLabels(p *Point) []benchLabel {
	var ls []benchLabel
	switch p.Kind {
	case KindLab:
		return []benchLabel{{"lab", &p.Lab.Name, false}, {"variant", &p.Lab.Variant, false}, {"par", &p.Par, false}}
	case KindStudy:
		ls = []benchLabel{{"study", &p.Study.Name, false}, {"variant", &p.Mode, false}}
	default:
		ls = []benchLabel{{"mode", &p.Mode, false}}
	}
	closed := p.Rate <= 0
	ls = append(ls, benchLabel{"par", &p.Par, false}, benchLabel{"rate", &p.Rate, closed}, benchLabel{"maxq", &p.MaxQ, closed})
	if p.Shop != nil {
		ls = append(ls, stepLabels(&p.Shop.Steps)...)
	}
	measured := !p.IsModel()
	return append(ls, benchLabel{"source", &p.Source, measured}, benchLabel{"sched", &p.Sched, measured || p.Sched == ""})
}

// stepLabels are the labels of a shop's steps; those that differ from
// DefaultSteps are in a name (a YAML system's zero steps none).
func stepLabels(s *Steps) []benchLabel {
	def, yaml := DefaultSteps(), *s == Steps{}
	return []benchLabel{{"grind", millis{&s.Grind}, yaml || s.Grind == def.Grind}, {"press", millis{&s.Press}, yaml || s.Press == def.Press},
		{"steam", millis{&s.Steam}, yaml || s.Steam == def.Steam}, {"combine", millis{&s.Combine}, yaml || s.Combine == def.Combine},
		{"jitter", millis{&s.Jitter}, yaml || s.Jitter == 0}, {"clock", &s.Clock, yaml || s.Clock == "" || s.Clock == def.Clock}}
}

// NonDefault returns a label, "grind=2ms", "clock=cpu", for each setting in s
// that differs from DefaultSteps, so that names made of it stay short.
func (s Steps) NonDefault() []string { return shown(stepLabels(&s)) }

// shown are the labels a name holds, as it holds them.
func shown(labels []benchLabel) []string {
	var out []string
	for _, l := range labels {
		if !l.omit {
			out = append(out, l.String())
		}
	}
	return out
}

// String is the label as a name holds it, "rate=800", "grind=2ms".
func (l benchLabel) String() string {
	s := ""
	switch v := l.ptr.(type) {
	case *string:
		s = benchToken(*v, true)
	case *int:
		s = strconv.Itoa(*v)
	case *float64:
		s = strconv.FormatFloat(*v, 'f', -1, 64)
	case millis:
		s = strconv.FormatFloat(Ms(*v.d), 'f', -1, 64) + "ms"
	}
	return l.key + "=" + s
}

// set reads the label's value into its field, or says what it should be.
func (l benchLabel) set(s string) error {
	want := ""
	if _, ok := l.ptr.(millis); ok {
		s = strings.TrimSuffix(s, "ms")
	}
	switch v := l.ptr.(type) {
	case *string:
		*v = s
	case *int:
		n, err := strconv.Atoi(s)
		if _, ferr := strconv.ParseFloat(s, 64); err != nil && ferr == nil {
			want = "a whole number"
		} else if err != nil {
			want = "a number"
		}
		*v = n
	case *float64, millis:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			want = "a number"
		}
		if f, ok := v.(*float64); ok {
			*f = x
		} else {
			*v.(millis).d = FromMs(x)
		}
	}
	if want != "" {
		return fmt.Errorf("%s=%q is not %s", l.key, s, want)
	}
	return nil
}

// benchMeasure is a unit of a bench line, which way is better in it (for
// benchstat's Unit lines), and the point's field or metric it holds.
type benchMeasure struct {
	unit, better string
	v            *float64
	metric       Metric
}

func (m benchMeasure) value(p Point) float64 {
	if m.v != nil {
		return *m.v
	}
	return p.Metrics[m.metric]
}

// benchMeasures are the units of p's bench line after its ns/op: a Go
// benchmark's own, or the throughput, latencies, CPU use and lab metrics.
func benchMeasures(p *Point) []benchMeasure {
	var ms []benchMeasure
	if p.Kind != KindBench {
		unit := cmp.Or(benchToken(p.Unit, false), "ops/s")
		ms = []benchMeasure{{unit, "higher", &p.Throughput, ""}, {"p50-ms", "lower", &p.Latency.P50, ""}, {"p95-ms", "lower", &p.Latency.P95, ""},
			{"p99-ms", "lower", &p.Latency.P99, ""}, {"mean-ms", "lower", &p.Latency.Mean, ""}, {"cpu-util", "", nil, Util}}
	}
	if p.Kind == KindBench || p.Kind == KindLab {
		for _, m := range p.Own() {
			if m != "ns/op" {
				ms = append(ms, benchMeasure{benchToken(string(m), false), "", nil, m})
			}
		}
	}
	return ms
}

// nsPerOp is the time per operation of p's bench line: a Go benchmark's
// own, or the window over the operations.
func nsPerOp(p Point) float64 {
	if v, ok := p.Metrics["ns/op"]; ok && p.Kind == KindBench {
		return v
	}
	return float64(p.Dur) / float64(p.Ops)
}

// WriteBench writes points in the Go benchmark format, for benchstat and
// ReadBench:
//
//	BenchmarkCoffee/mode=finelocking/par=2-2 1000 2.004008e+06 ns/op 499 lattes/s 4.012 p50-ms …
//
// The name holds the configuration, so that repetitions share one and a
// prediction never has a measurement's. A point with no operations is
// left out, and a disturbed one marked, each with a comment line that
// comment says (report/text's BenchComment).
func WriteBench(w io.Writer, points []Point, comment func(Point) string) error {
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
		for _, m := range benchMeasures(&p) {
			if m.better == "" || described[m.unit] {
				continue
			}
			described[m.unit] = true
			rec := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: m.unit, Key: "better"}, OrigUnit: m.unit, Value: m.better}
			if err := fw.Write(rec); err != nil {
				return err
			}
		}
	}
	lastSource := ""
	for _, p := range points {
		name := benchName(p)
		if src := strings.Join(strings.Fields(p.Origin()), " "); p.Kind == KindBench && src != lastSource {
			// A Go benchmark's machine goes in a comment, which benchstat
			// ignores: as a configuration line it would split its table
			// from go test's own output of the same benchmarks.
			fmt.Fprintf(bw, "%s%s\n", sourceComment, src)
			lastSource = src
		}
		if p.Ops <= 0 {
			// The Writer writes each record at once: this comes in its place.
			fmt.Fprintf(bw, "# Benchmark%s: %s\n", name, comment(p))
			continue
		}
		if p.IsDisturbed() {
			fmt.Fprintf(bw, "# Benchmark%s: %s\n", name, comment(p))
		}
		res := &benchfmt.Result{Name: benchfmt.Name(name), Iters: int(p.Ops), Config: benchConfig(p)}
		if p.Kind == KindBench {
			res.Iters = int(p.Bench.Iters)
		}
		res.Values = append(res.Values, benchfmt.Value{Value: round6(nsPerOp(p)), Unit: "ns/op"})
		for _, m := range benchMeasures(&p) {
			res.Values = append(res.Values, benchfmt.Value{Value: round6(m.value(p)), Unit: m.unit})
		}
		if err := fw.Write(res); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// sourceComment starts the comment line naming the Go benchmarks' machine.
const sourceComment = "# source: "

// benchConfig is the configuration lines of p's bench line, none empty.
func benchConfig(p Point) []benchfmt.Config {
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
	if p.Kind == KindBench {
		config = config[:4] // its source is a comment (WriteBench)
	}
	var out []benchfmt.Config
	for _, kv := range config {
		if v := strings.Join(strings.Fields(kv[1]), " "); v != "" {
			out = append(out, benchfmt.Config{Key: kv[0], Value: []byte(v), File: true})
		}
	}
	return out
}

// benchName is p's benchmark name, without "Benchmark", with the CPU
// count as the -N suffix unless it is 1. Its last part is key=value, so
// that only the suffix ends it in -<digits> (mode multi-2).
func benchName(p Point) string {
	if p.Kind == KindBench {
		return BenchName(BenchMode(p.Bench.Name), p.CPUs)
	}
	return BenchName(strings.Join(append([]string{benchBase(p.Kind)}, shown(benchLabels(&p))...), "/"), p.CPUs)
}

// benchToken makes s one field of a bench line: no spaces, in a name no slashes.
func benchToken(s string, namePart bool) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || namePart && r == '/' {
			return '_'
		}
		return r
	}, s)
}

// round6 rounds v to six significant digits (a whole number from a
// million up): the float nearest that decimal, as strconv reads it.
func round6(v float64) float64 {
	prec, verb := 5, byte('e')
	if math.Abs(v) >= 1e6 {
		prec, verb = 0, 'f'
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, verb, prec, 64), 64)
	return r
}

// BenchName is a benchmark's name at a CPU count as go test writes it.
func BenchName(name string, cpus int) string {
	if cpus == 1 {
		return name
	}
	return name + "-" + strconv.Itoa(cpus)
}

// FormatBenchValue formats a benchmark's value as benchstat does, "70.79n",
// and returns its tidied unit (sec/op for ns/op).
func FormatBenchValue(v float64, unit string) (string, string) {
	v, unit = benchunit.Tidy(v, unit)
	return benchunit.Scale(v, benchunit.ClassOf(unit)), unit
}

// Benchmark is a Go benchmark's point's part, its line's values (ns/op,
// B/op, its own) the point's metrics.
type Benchmark struct {
	// Name is without the -N suffix, "BenchmarkCache/mutex/read".
	Name  string
	Pkg   string
	Iters int64
	// Locks are the lock sites its run took, where brewput watched them
	// (bench --locks): a site's locks are one group, "(*Book).Place at
	// book.go:42#1" …, as a study's sharded meters are.
	Locks []Machine
	// Watched says its locks were watched: no Locks then means it took
	// none while its timer ran, not that nobody looked.
	Watched bool
	// Stretch names the run of a why experiment a point was, where it was
	// one: StretchAsIs, StretchControl (StretchNs before every lock), or
	// the lock group whose every hold was StretchNs longer.
	Stretch   string
	StretchNs float64
}

// The runs of a why experiment that are not a lock group's stretch.
const (
	StretchAsIs    = "as it is"
	StretchControl = "control"
)

// AsIs says whether b ran as its code says: no why experiment's
// stretch, or its run as it is.
func (b Benchmark) AsIs() bool { return b.Stretch == "" || b.Stretch == StretchAsIs }

// BenchMode is a benchmark's point's mode: its name without "Benchmark".
func BenchMode(name string) string {
	if m := strings.TrimPrefix(name, "Benchmark"); m != "" {
		return m
	}
	return name
}
