package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
)

// csvField is a CSV column and the field of a point its cells hold: of an
// optional part ("" for the core), its cell empty for zero where omitzero.
type csvField struct {
	name     string
	part     string
	omitzero bool
	ptr      any
}

// seconds and millis are a duration held in seconds or in milliseconds;
// costList a calibration's costs.
type (
	seconds  struct{ d *time.Duration }
	millis   struct{ d *time.Duration }
	costList struct{ k *[]Cost }
)

// csvParts are the optional parts of a point as a row holds them.
type csvParts struct {
	service  Latency
	bounds   Bounds
	band     Band
	cal      Calibration
	aside    SetAside  // the calibration's, where it has one
	machines []Machine // a shop's machines or a study's meters
	steps    Steps
	lab      labJSON
	study    string
	bench    benchJSON
}

// csvFields are the CSV columns, in order, with the fields of p and s they
// hold, named by their JSON keys joined with dots (a part's without the
// part's name). A list's entries share a cell, split by semicolons.
func csvFields(p *Point, s *csvParts) []csvField {
	f := func(name, part string, ptr any) csvField { return csvField{name: name, part: part, ptr: ptr} }
	z := func(name, part string, ptr any) csvField { return csvField{name, part, true, ptr} }
	b, c, st := &s.bounds, &s.cal, &s.steps
	fs := []csvField{f("kind", "", &p.Kind), f("source", "", &p.Source), f("mode", "", &p.Mode), f("cpus", "", &p.CPUs),
		f("cpuset", "", &p.CPUSet), f("par", "", &p.Par), f("rate", "", &p.Rate), f("maxq", "", &p.MaxQ),
		f("dur_s", "", seconds{&p.Dur}), f("warmup_s", "", seconds{&p.Warmup}), f("rep", "", &p.Rep), f("harness", "", &p.Harness),
		f("sched", "", &p.Sched), z("seed", "", &p.Seed), f("burn", "", &p.Burn),
		z("background.cpus", "", &p.Background.CPUs), z("background.burst_ms", "", millis{&p.Background.Burst})}
	columns := Columns()
	for _, c := range columns[:coreColumns] {
		fs = append(fs, f(string(c.Key), "", c.ref(p)))
	}
	for i, k := range latencyKeys() {
		fs = append(fs, f("latency_ms."+k, "", p.Latency.fields()[i]))
	}
	for i, k := range latencyKeys() {
		fs = append(fs, f("service_ms."+k, "service", s.service.fields()[i]))
	}
	fs = append(fs, f("bounds.cpu", "bounds", &b.CPU), f("bounds.structural", "bounds", &b.Structural),
		f("bounds.throughput_max", "bounds", &b.ThroughputMax), f("bounds.latency_min_ms", "bounds", &b.LatencyMinMs),
		f("bounds.resource", "bounds", &b.Resource), f("bounds.set_by", "bounds", &b.SetBy), f("bounds.little", "bounds", &b.Little),
		z("bounds.arrived", "bounds", &b.Arrived), z("bounds.growth", "bounds", &b.Growth),
		f("thr_lo", "band", &s.band.Throughput[0]), f("thr_hi", "band", &s.band.Throughput[1]),
		f("p50_lo", "band", &s.band.P50Ms[0]), f("p50_hi", "band", &s.band.P50Ms[1]),
		f("disturbed", "", &p.Disturbed), f("others_cpus", "", &p.OthersCPUs), f("steal_cpus", "", &p.StealCPUs), f("attempts", "", &p.Attempts),
		f("calibration.host", "calibration", &c.Host), z("calibration.date", "calibration", &c.Date),
		f("calibration.others_cpus", "calibration", &c.Others), f("calibration.forced", "calibration", &c.Forced),
		z("calibration.unsaved", "calibration", &c.Unsaved),
		f("calibration.costs", "calibration", costList{&c.Costs}), f("calibration.given", "calibration", &c.Given),
		z("calibration.calibrations", "calibration", &c.Calibrations), z("calibration.since", "calibration", &c.Since),
		f("machines", "machines", &s.machines), f("steps.grind_ms", "shop", millis{&st.Grind}), f("steps.press_ms", "shop", millis{&st.Press}),
		f("steps.steam_ms", "shop", millis{&st.Steam}), f("steps.combine_ms", "shop", millis{&st.Combine}),
		f("steps.jitter_ms", "shop", millis{&st.Jitter}), f("steps.clock", "shop", &st.Clock),
		f("lab", "lab", &s.lab.Name), f("variant", "lab", &s.lab.Variant), f("metrics", "lab", &s.lab.Metrics), f("study", "study", &s.study),
		f("bench.name", "bench", &s.bench.Name), f("bench.pkg", "bench", &s.bench.Pkg), f("bench.iters", "bench", &s.bench.Iters),
		f("bench.values", "bench", &s.bench.Values),
		f("host.name", "", &p.Host.Name), f("host.cpu_model", "", &p.Host.CPUModel), f("host.cores", "", &p.Host.Cores),
		f("host.go_version", "", &p.Host.GoVersion), f("host.os", "", &p.Host.OS), f("host.arch", "", &p.Host.Arch), f("start", "", &p.Start),
		f("calibration.set_aside.date", "aside", &s.aside.Date), f("calibration.set_aside.others_cpus", "aside", &s.aside.Others),
		f("calibration.set_aside.forced", "aside", &s.aside.Forced), f("calibration.set_aside.unsaved", "aside", &s.aside.Unsaved),
		f("calibration.set_aside.costs", "aside", costList{&s.aside.Costs}), f("calibration.set_aside.reference", "aside", &s.aside.Reference))
	for _, c := range columns[coreColumns:] {
		fs = append(fs, f(string(c.Key), "", c.ref(p)))
	}
	return fs
}

func csvHeader() []string {
	return collect.Mapped(csvFields(&Point{}, &csvParts{}), func(f csvField) string { return f.name })
}

func latencyKeys() []string {
	return []string{"min", "p05", "p25", "p50", "p75", "p90", "p95", "p99", "max", "mean"}
}

func (l *Latency) fields() []*float64 {
	return []*float64{&l.Min, &l.P05, &l.P25, &l.P50, &l.P75, &l.P90, &l.P95, &l.P99, &l.Max, &l.Mean}
}

// has says which of csvParts p has.
func (p Point) has() map[string]bool {
	return map[string]bool{"": true, "service": p.Service != nil, "bounds": p.Bounds != nil, "band": p.Band != nil,
		"calibration": p.Calibration != nil, "aside": p.Calibration != nil && p.Calibration.SetAside != nil,
		"machines": p.Shop != nil || p.Study != nil, "shop": p.Shop != nil,
		"lab": p.Lab != nil, "study": p.Study != nil, "bench": p.Bench != nil}
}

// WriteCSV writes a header and one row per point, for spreadsheets: no
// histogram, bottleneck, waits or caveats.
func WriteCSV(w io.Writer, points []Point) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader()); err != nil {
		return err
	}
	for _, p := range points {
		if err := p.CheckFinite(); err != nil {
			return err
		}
		wire := p.wire()
		s := csvParts{service: deref(p.Service), bounds: deref(p.Bounds), band: deref(p.Band), cal: deref(p.Calibration),
			machines: p.Machines(), steps: p.Steps(), lab: deref(wire.Lab), study: p.StudyName(), bench: deref(wire.Bench)}
		if p.Calibration != nil {
			s.aside = deref(p.Calibration.SetAside)
		}
		p.Disturbed = p.IsDisturbed()
		has := p.has()
		var row []string
		for _, f := range csvFields(&p, &s) {
			cell := ""
			if has[f.part] {
				cell = csvCell(f.ptr)
			}
			if f.omitzero && (cell == "0" || strings.HasPrefix(cell, "0001-01-01")) {
				cell = ""
			}
			row = append(row, cell)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func csvCell(ptr any) string {
	var cells []string
	switch v := ptr.(type) {
	case *string:
		return *v
	case *int:
		return strconv.Itoa(*v)
	case *int64:
		return strconv.FormatInt(*v, 10)
	case *uint64:
		return strconv.FormatUint(*v, 10)
	case *float64:
		return num(*v)
	case *bool:
		return strconv.FormatBool(*v)
	case metricOf:
		if v, ok := v.c.Value(*v.p); ok {
			return num(v)
		}
		return ""
	case *Kind:
		return v.String()
	case seconds:
		return num(v.d.Seconds())
	case millis:
		return num(Ms(*v.d))
	case *time.Time:
		return v.Format(time.RFC3339Nano)
	case *[]string:
		cells = *v
	case *[]Machine:
		for _, m := range *v {
			cells = append(cells, fmt.Sprintf("%s:%d:%s:%s", m.Name, m.Uses, num(m.BusyFrac), num(m.MeanWaitMs)))
		}
	case costList:
		for _, k := range *v.k {
			cells = append(cells, fmt.Sprintf("%s:%d:%d:%d", k.Name, k.Median, k.Lo, k.Hi))
		}
	case *map[Metric]float64: // in name order, so that the same point gives the same row
		for _, k := range slices.Sorted(maps.Keys(*v)) {
			cells = append(cells, string(k)+"="+num((*v)[k]))
		}
	case *[]benchValue:
		for _, b := range *v {
			cells = append(cells, string(b.Unit)+"="+num(b.Value))
		}
	}
	return strings.Join(cells, ";")
}
