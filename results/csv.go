package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// csvField is a CSV column and the field of a point its cells hold.
type csvField struct {
	name string
	// part is the optional part the column is of, "" for the core.
	part string
	// omitzero leaves the cell empty for a zero value.
	omitzero bool
	// ptr points to the field, of a type csvCell writes.
	ptr any
}

// seconds and millis are a duration held in seconds or in milliseconds;
// costsOf a calibration's costs.
type (
	seconds struct{ d *time.Duration }
	millis  struct{ d *time.Duration }
	costsOf struct{ c *Calibration }
	// costList is a list of costs alone: a set-aside calibration's.
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
	lab      Lab
	study    string
	bench    Benchmark
}

// csvFields are the CSV columns, in order, with the fields of p and s they
// hold, named by their JSON keys joined with dots (a part's without the part's
// name). A list's entries share a cell, split by semicolons: the machines'
// name:uses:busy_frac:mean_wait_ms, the costs' name:median_ns:lo_ns:hi_ns.
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
		fs = append(fs, f(c.Key, "", c.ref(p)))
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
		f("calibration.costs", "calibration", costsOf{c}), f("calibration.given", "calibration", &c.Given),
		z("calibration.calibrations", "calibration", &c.Calibrations), z("calibration.since", "calibration", &c.Since),
		f("machines", "machines", &s.machines), f("steps.grind_ms", "shop", millis{&st.Grind}), f("steps.press_ms", "shop", millis{&st.Press}),
		f("steps.steam_ms", "shop", millis{&st.Steam}), f("steps.combine_ms", "shop", millis{&st.Combine}),
		f("steps.jitter_ms", "shop", millis{&st.Jitter}), f("steps.clock", "shop", &st.Clock),
		f("lab", "lab", &s.lab.Name), f("variant", "lab", &s.lab.Variant), f("metrics", "lab", &s.lab.Metrics), f("study", "study", &s.study),
		f("bench.name", "bench", &s.bench.Name), f("bench.pkg", "bench", &s.bench.Pkg), f("bench.iters", "bench", &s.bench.Iters),
		f("bench.values", "bench", &s.bench.Values),
		f("host.name", "", &p.Host.Name), f("host.cpu_model", "", &p.Host.CPUModel), f("host.cores", "", &p.Host.Cores),
		f("host.go_version", "", &p.Host.GoVersion), f("host.os", "", &p.Host.OS), f("host.arch", "", &p.Host.Arch), f("start", "", &p.Start),
		// Last, so that a file of schema 3 from before them still reads
		// (checkCSVHeader).
		f("calibration.set_aside.date", "aside", &s.aside.Date), f("calibration.set_aside.others_cpus", "aside", &s.aside.Others),
		f("calibration.set_aside.forced", "aside", &s.aside.Forced), f("calibration.set_aside.unsaved", "aside", &s.aside.Unsaved),
		f("calibration.set_aside.costs", "aside", costList{&s.aside.Costs}), f("calibration.set_aside.reference", "aside", &s.aside.Reference))
	for _, c := range columns[coreColumns:] {
		fs = append(fs, f(c.Key, "", c.ref(p)))
	}
	return fs
}

// csvHeader lists the CSV columns.
func csvHeader() []string {
	var h []string
	for _, f := range csvFields(&Point{}, &csvParts{}) {
		h = append(h, f.name)
	}
	return h
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
		s := csvParts{service: deref(p.Service), bounds: deref(p.Bounds), band: deref(p.Band), cal: deref(p.Calibration),
			machines: p.Machines(), steps: p.Steps(), lab: deref(p.Lab), study: p.StudyName(), bench: deref(p.Bench)}
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

// deref is what p points to, or the zero value.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// csvCell writes the field ptr points to.
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
	case measure:
		if v, ok := v.p.Measures[v.key]; ok {
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
	case costsOf:
		cells = costCells(v.c.Costs)
	case costList:
		cells = costCells(*v.k)
	case *map[Metric]float64: // in name order, so that the same point gives the same row
		for _, k := range slices.Sorted(maps.Keys(*v)) {
			cells = append(cells, string(k)+"="+num((*v)[k]))
		}
	case *[]BenchValue:
		for _, b := range *v {
			cells = append(cells, b.Unit+"="+num(b.Value))
		}
	}
	return strings.Join(cells, ";")
}

// ReadCSV reads what WriteCSV writes: the header, checked column by column, then a point per row. An error names the
// line and the column it could not read.
func ReadCSV(r io.Reader) ([]Point, error) {
	points, _, err := readCSV(r)
	return points, err
}

// readCSV is ReadCSV, with notes on the newer columns it ignored.
func readCSV(r io.Reader) ([]Point, []string, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil, fmt.Errorf("line 1: no header; want brewput's CSV from --format csv")
	}
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	if extra, ok := newerCSVColumns(header); ok {
		notes = append(notes, fmt.Sprintf("line 1: columns %s are not known to this version of brewput (a newer one wrote them?), ignored", strings.Join(extra, ", ")))
		cr.FieldsPerRecord = len(header)
	} else if err := checkCSVHeader(header); err != nil {
		return nil, nil, fmt.Errorf("line 1: not brewput's CSV header: %w", err)
	}
	col := map[string]int{}
	for i, name := range header {
		col[name] = i
	}
	var points []Point
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return points, notes, nil
		}
		if err != nil {
			return nil, nil, err // a *csv.ParseError, which names the line
		}
		row := &csvRow{rec: rec, col: col, pos: cr.FieldPos}
		p := row.point()
		if row.err != nil {
			return nil, nil, row.err
		}
		if p.Mode == "" || p.CPUs < 1 {
			line, _ := cr.FieldPos(0)
			return nil, nil, fmt.Errorf("line %d: not a brewput point: missing mode or cpus", line)
		}
		if err := p.CheckRead(); err != nil {
			line, _ := cr.FieldPos(0)
			return nil, nil, fmt.Errorf("line %d: %w", line, err)
		}
		points = append(points, p)
	}
}

// isCSVHeader reports whether line is a header ReadCSV reads.
func isCSVHeader(line string) bool {
	header := strings.Split(line, ",")
	_, newer := newerCSVColumns(header)
	return newer || checkCSVHeader(header) == nil && len(header) > 0 && header[0] == "kind"
}

// newerCSVColumns returns the columns of header after this version's
// own, where header starts with them all.
func newerCSVColumns(header []string) ([]string, bool) {
	h := csvHeader()
	if len(header) <= len(h) || !slices.Equal(header[:len(h)], h) {
		return nil, false
	}
	return header[len(h):], true
}

// checkCSVHeader tells how a header differs from brewput's.
func checkCSVHeader(got []string) error {
	want := csvHeader()
	// Columns added since the first of schema 3 come after its last,
	// "start": a file from before them lacks only some of its last.
	if len(got) > slices.Index(want, "start") && len(got) <= len(want) && slices.Equal(got, want[:len(got)]) {
		return nil
	}
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return fmt.Errorf("it ends before column %d, %q", i+1, want[i])
		case i >= len(want):
			return fmt.Errorf("column %d, %q, is one too many", i+1, got[i])
		case got[i] != want[i]:
			return fmt.Errorf("column %d is %q, want %q", i+1, got[i], want[i])
		}
	}
	return nil
}

// csvRow reads the cells of one CSV record by column name, keeping the
// first error.
type csvRow struct {
	rec []string
	col map[string]int
	pos func(field int) (line, column int)
	err error
}

// point reads the row's point, its parts by what their cells hold; see
// row.err for what failed. A required field may not be empty.
func (r *csvRow) point() Point {
	var p Point
	var s csvParts
	required := append(requiredFields(), "start", "kind")
	for _, f := range csvFields(&p, &s) {
		if cell := r.str(f.name); cell != "" || slices.Contains(required, strings.Split(f.name, ".")[0]) {
			r.set(f.name, f.ptr, cell)
		}
	}
	if r.str("service_ms.p50") != "" {
		p.Service = &s.service
	}
	if r.str("bounds.throughput_max") != "" {
		p.Bounds = &s.bounds
	}
	if r.str("thr_lo") != "" {
		p.Band = &s.band
	}
	if r.str("calibration.costs") != "" {
		p.Calibration = &s.cal
		if r.str("calibration.set_aside.costs") != "" {
			p.Calibration.SetAside = &s.aside
		}
	}
	if s.machines == nil {
		s.machines = []Machine{}
	}
	switch p.Kind {
	case KindShop:
		p.Shop = &Shop{Machines: s.machines, Steps: s.steps}
	case KindLab:
		p.Lab = &s.lab
	case KindStudy:
		p.Study = &Study{Name: s.study, Meters: s.machines}
	case KindBench:
		p.Bench = &s.bench
	}
	p.Assess()
	return p
}

// set reads cell into the field ptr points to, or fails naming the column.
func (r *csvRow) set(name string, ptr any, cell string) {
	switch v := ptr.(type) {
	case *[]string:
		*v = strings.Split(cell, ";")
	case *[]Machine:
		*v = r.machines(name, cell)
	case costsOf:
		r.costs(name, cell, v.c)
	case costList:
		*v.k = r.costList(name, cell)
	case *map[Metric]float64:
		*v = map[Metric]float64{}
		r.pairs(name, cell, "name", func(k string, x float64) { (*v)[Metric(k)] = x })
	case *[]BenchValue:
		r.pairs(name, cell, "unit", func(k string, x float64) { *v = append(*v, BenchValue{Value: x, Unit: k}) })
	default:
		if want := parseScalar(ptr, cell); want != "" {
			r.fail(name, "%q is not %s", cell, want)
		}
	}
}

// parseScalar reads s into the field ptr points to, of a type csvCell
// writes other than a list, and says what s should be where it is not.
func parseScalar(ptr any, s string) (want string) {
	float := func() float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			want = "a number"
		}
		return v
	}
	var err error
	switch v := ptr.(type) {
	case *string:
		*v = s
	case *int, *int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if _, ferr := strconv.ParseFloat(s, 64); err != nil && ferr == nil {
			want = "a whole number"
		} else if err != nil {
			want = "a number"
		}
		if i, ok := v.(*int); ok {
			*i = int(n)
		} else {
			*v.(*int64) = n
		}
	case *uint64:
		if *v, err = strconv.ParseUint(s, 10, 64); err != nil {
			want = "a seed, a whole number from 0"
		}
	case *float64:
		*v = float()
	case measure:
		if v.p.Measures == nil {
			v.p.Measures = map[string]float64{}
		}
		v.p.Measures[v.key] = float()
	case *bool:
		*v = s == "true"
	case *Kind:
		var ok bool
		if *v, ok = ParseKind(s); !ok {
			want = "a kind of point: shop, lab, study or bench"
		}
	case seconds:
		*v.d = FromSeconds(float())
	case millis:
		*v.d = FromMs(float())
	case *time.Time:
		if *v, err = time.Parse(time.RFC3339Nano, s); err != nil {
			want = "an RFC 3339 time"
		}
	}
	return want
}

// str is the cell of the named column, "" where the file has none.
func (r *csvRow) str(name string) string {
	i, ok := r.col[name]
	if !ok {
		return ""
	}
	return r.rec[i]
}

// fail records the first error, naming the line and the column.
func (r *csvRow) fail(name, format string, args ...any) {
	if r.err == nil {
		line, _ := r.pos(r.col[name])
		r.err = fmt.Errorf("line %d, column %q: %s", line, name, fmt.Sprintf(format, args...))
	}
}

// pairs reads a cell of key=number pairs separated by semicolons, the
// number after the last "=".
func (r *csvRow) pairs(name, cell, key string, add func(string, float64)) {
	for _, kv := range strings.Split(cell, ";") {
		i := strings.LastIndexByte(kv, '=')
		var v float64
		var err error
		if i > 0 {
			v, err = strconv.ParseFloat(kv[i+1:], 64)
		}
		if i <= 0 || err != nil {
			r.fail(name, "%q is not %s=number", kv, key)
			return
		}
		add(kv[:i], v)
	}
}

// machines reads the name:uses:busy_frac:mean_wait_ms entries; a name
// may hold a colon.
func (r *csvRow) machines(name, cell string) []Machine {
	var ms []Machine
	for _, e := range strings.Split(cell, ";") {
		f := strings.Split(e, ":")
		n := len(f)
		var err1, err2, err3 error
		m := Machine{Name: strings.Join(f[:max(n-3, 0)], ":")}
		if n >= 4 {
			m.Uses, err1 = strconv.ParseInt(f[n-3], 10, 64)
			m.BusyFrac, err2 = strconv.ParseFloat(f[n-2], 64)
			m.MeanWaitMs, err3 = strconv.ParseFloat(f[n-1], 64)
		}
		if n < 4 || err1 != nil || err2 != nil || err3 != nil {
			r.fail(name, "%q is not name:uses:busy_frac:mean_wait_ms", e)
			return ms
		}
		ms = append(ms, m)
	}
	return ms
}

// costs reads a calibration's costs into c.
func (r *csvRow) costs(name, cell string, c *Calibration) {
	c.Costs = r.costList(name, cell)
}

// costList reads a cell of costs, name:median_ns:lo_ns:hi_ns each.
func (r *csvRow) costList(name, cell string) []Cost {
	var out []Cost
	for _, e := range strings.Split(cell, ";") {
		f := strings.Split(e, ":")
		var ns [3]int64
		var err error
		for i := range ns {
			if len(f) == 4 && err == nil {
				ns[i], err = strconv.ParseInt(f[i+1], 10, 64)
			}
		}
		if len(f) != 4 || err != nil {
			r.fail(name, "%q is not name:median_ns:lo_ns:hi_ns", e)
			return out
		}
		out = append(out, Cost{Name: f[0], Median: time.Duration(ns[0]), Lo: time.Duration(ns[1]), Hi: time.Duration(ns[2])})
	}
	return out
}

// costCells are costs as a cell's entries.
func costCells(costs []Cost) []string {
	var cells []string
	for _, k := range costs {
		cells = append(cells, fmt.Sprintf("%s:%d:%d:%d", k.Name, k.Median, k.Lo, k.Hi))
	}
	return cells
}
