package results

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/brewput/brewput/internal/base/format"
)

// ReadBench reads Go benchmark output: WriteBench's lines come back as points
// of their kind, any other as a Go benchmark's, from name where the output
// names no source. An error names the line.
func ReadBench(r io.Reader, name string) ([]Point, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	// A Go benchmark's machine is in a comment line, which benchfmt skips.
	type source struct {
		line int
		name string
	}
	var sources []source
	for i, line := range bytes.Split(data, []byte("\n")) {
		if s, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte(sourceComment)); ok {
			sources = append(sources, source{i + 1, string(bytes.TrimSpace(s))})
		}
	}
	sourceAt := func(line int) string {
		i, _ := slices.BinarySearchFunc(sources, line, func(s source, l int) int { return cmp.Compare(s.line, l) })
		if i == 0 {
			return filepath.Base(name)
		}
		return sources[i-1].name
	}
	var rd benchfmt.Reader
	rd.Reset(bytes.NewReader(data), name)
	var points []Point
	last := 0 // the last line read
	for rd.Scan() {
		_, last = rd.Result().Pos()
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("line %d: %s", rec.Line, rec.Msg)
		case *benchfmt.Result:
			p, err := BenchPoint(rec, 0, sourceAt(last))
			if err == nil {
				err = p.CheckRead()
			}
			if err != nil {
				_, line := rec.Pos()
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			points = append(points, p)
		}
	}
	if err := rd.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("after line %d: a line longer than the %s x/perf's benchfmt reads", last, format.Bytes(bufio.MaxScanTokenSize))
	} else if err != nil {
		return nil, err
	}
	NumberReps(points)
	return points, nil
}

// NumberReps numbers the repetitions of each configuration 1, 2, … in
// order, where any has more than one.
func NumberReps(points []Point) {
	type key struct {
		mode, origin, study, lab string
		cpus, par                int
		rate                     float64
		model                    bool
	}
	keyOf := func(p Point) key {
		return key{p.Mode, p.Origin(), p.StudyName(), p.LabName(), p.CPUs, p.Par, p.Rate, p.IsModel()}
	}
	count := map[key]int{}
	repeated := false
	for _, p := range points {
		count[keyOf(p)]++
		repeated = repeated || count[keyOf(p)] > 1
	}
	if !repeated {
		return
	}
	clear(count)
	for i := range points {
		k := keyOf(points[i])
		count[k]++
		points[i].Rep = count[k]
	}
}

// BenchPoint turns one benchmark result into a point: on cpus CPUs, or
// where 0 the name's -N suffix; from source where its configuration names
// none. A Go benchmark's point has Par its CPUs, Ops the iterations,
// Throughput in ops/s, and package bench's p50 and p99 latency.
func BenchPoint(res *benchfmt.Result, cpus int, source string) (Point, error) {
	full := res.Name.String()
	base, procs := splitProcs(full, cpus)
	if procs < 1 {
		return Point{}, fmt.Errorf("Benchmark%s: GOMAXPROCS %d; want at least 1", full, procs)
	}
	host := Host{OS: res.GetConfig("goos"), Arch: res.GetConfig("goarch"), CPUModel: res.GetConfig("cpu")}
	p := Point{Source: SourceMeasured, Spec: Spec{CPUs: procs, Load: Load{Par: procs}}, Ops: int64(res.Iters), Host: host}
	switch src := res.GetConfig("source"); src {
	case SourceModel:
		p.Source = SourceModel
	case "":
		p.Host.Name = source
	default:
		p.Host.Name = src
	}
	sec, ok := res.Value("sec/op")
	if !ok || sec <= 0 {
		return Point{}, fmt.Errorf("Benchmark%s: no positive time per operation (ns/op)", full)
	}
	p.Dur = FromSeconds(sec * float64(res.Iters))

	name, parts := splitName(base)
	for _, k := range []Kind{KindShop, KindLab, KindStudy} {
		if name == benchBase(k) && isBrewputName(k, parts) {
			p, err := brewputPoint(p, res, k, parts)
			p.Assess()
			return p, err
		}
	}
	return goBenchPoint(p, res, base), nil
}

// isBrewputName reports whether a name's parts are those WriteBench
// writes of a point of kind k.
func isBrewputName(k Kind, parts map[string]string) bool {
	required := map[Kind][]string{KindShop: {"mode"}, KindLab: {"lab", "variant"}, KindStudy: {"study", "variant"}}[k]
	_, par := parts["par"]
	return par && !slices.ContainsFunc(required, func(key string) bool { return parts[key] == "" })
}

// splitProcs splits a benchmark's full name into the name and GOMAXPROCS:
// the -N suffix where cpus is 0, or cpus.
func splitProcs(full string, cpus int) (string, int) {
	if cpus > 0 {
		suffix := "-" + strconv.Itoa(cpus)
		if cpus != 1 && strings.HasSuffix(full, suffix) {
			return strings.TrimSuffix(full, suffix), cpus
		}
		return full, cpus
	}
	name := benchfmt.Name(full)
	_, parts := name.Parts()
	if len(parts) > 0 && parts[len(parts)-1][0] == '-' {
		last := parts[len(parts)-1]
		if n, err := strconv.Atoi(string(last[1:])); err == nil {
			return full[:len(full)-len(last)], n
		}
	}
	return full, 1
}

// splitName splits a name (without the suffix) into its base and its
// key=value parts; positional parts are left out.
func splitName(name string) (string, map[string]string) {
	fields := strings.Split(name, "/")
	kv := map[string]string{}
	for _, f := range fields[1:] {
		if k, v, ok := strings.Cut(f, "="); ok {
			kv[k] = v
		}
	}
	return fields[0], kv
}

func goBenchPoint(p Point, res *benchfmt.Result, base string) Point {
	b := &Benchmark{Name: "Benchmark" + base, Pkg: res.GetConfig("pkg"), Iters: int64(res.Iters)}
	for _, v := range res.Values {
		unit, value := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, value = v.OrigUnit, v.OrigValue
		}
		p.Set(Metric(unit), value)
	}
	p.Kind, p.Bench = KindBench, b
	p.Mode = BenchMode(b.Name)
	p.Throughput, p.Unit = float64(p.Ops)/p.Dur.Seconds(), "ops/s"
	p.Latency.P50, p.Latency.P99 = p.Metrics["p50-ns"]/1e6, p.Metrics["p99-ns"]/1e6
	return p
}

// brewputPoint reads back a point WriteBench wrote.
func brewputPoint(p Point, res *benchfmt.Result, kind Kind, parts map[string]string) (Point, error) {
	p.Kind = kind
	switch kind {
	case KindShop:
		p.Shop = &Shop{Machines: []Machine{}, Steps: DefaultSteps()}
	case KindLab:
		p.Lab = &Lab{}
	case KindStudy:
		p.Study = &Study{Meters: []Machine{}}
	}
	for _, l := range benchLabels(&p) {
		if v, ok := parts[l.key]; ok {
			if err := l.set(v); err != nil {
				return p, fmt.Errorf("Benchmark%s: %w", res.Name, err)
			}
		}
	}
	if p.Kind == KindLab {
		p.Mode = p.Lab.Name + "/" + p.Lab.Variant
	}
	measures := map[string]benchMeasure{}
	for _, m := range benchMeasures(&p)[1:] { // the throughput's unit is not known yet
		measures[m.unit] = m
	}
	for _, v := range res.Values {
		unit := cmp.Or(v.OrigUnit, v.Unit)
		m, known := measures[unit]
		switch {
		case unit == "ns/op":
		case known && m.v != nil:
			*m.v = v.Value
		case known:
			p.Set(m.metric, v.Value)
		case strings.HasSuffix(unit, "/s") && p.Unit == "":
			p.Throughput, p.Unit = v.Value, unit
		case kind == KindLab:
			p.Set(Metric(unit), v.Value)
		}
	}
	p.Set(CPUUsed, p.Metrics[Util]*float64(p.CPUs))
	return p, nil
}

// isBench reports whether data has a benchmark result line, read or malformed.
func isBench(data []byte) bool {
	rd := benchfmt.NewReader(bytes.NewReader(data), "")
	for rd.Scan() {
		switch rd.Result().(type) {
		case *benchfmt.Result, *benchfmt.SyntaxError:
			return true
		}
	}
	return false
}
