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

// csvHeader lists the CSV columns: the JSON keys, nested ones joined with a
// dot. The machines, whose number varies by mode, share one column of
// name:uses:busy_frac:mean_wait_ms entries separated by semicolons. The
// model's columns come last, so that a file from before them is the same
// header cut short (see legacyCSVHeader).
func csvHeader() []string {
	return append(inferenceEraCSVHeader(), steadyCSVColumns()...)
}

// inferenceEraCSVHeader is the header of files written before the open
// loop's arrivals and growth, which ReadCSV still reads.
func inferenceEraCSVHeader() []string {
	return append(interferenceEraCSVHeader(), inferenceCSVColumns()...)
}

// steadyCSVColumns are a model point's open-loop arrivals in its window
// and its queue's growth over it (Bounds.Arrived, Bounds.Growth).
func steadyCSVColumns() []string { return []string{"bounds.arrived", "bounds.growth"} }

// interferenceEraCSVHeader is the header of files written before the
// inference columns, which ReadCSV still reads.
func interferenceEraCSVHeader() []string {
	return append(codeEraCSVHeader(), interferenceCSVColumns()...)
}

// inferenceCSVColumns name the files of measured points a prediction's
// costs were inferred from (separated by semicolons) and how many
// configurations of theirs it used: empty for a microbenchmarked
// calibration.
func inferenceCSVColumns() []string {
	return []string{"calibration.inferred_from", "calibration.points"}
}

// codeEraCSVHeader is the header of files written before the
// interference columns, which ReadCSV still reads.
func codeEraCSVHeader() []string {
	return append(bandEraCSVHeader(), codeCSVColumns()...)
}

// bandEraCSVHeader is the header of files written before the columns of
// the user's code, which ReadCSV still reads.
func bandEraCSVHeader() []string {
	return append(labEraCSVHeader(), bandCSVColumns()...)
}

// interferenceCSVColumns are a measured point's interference: the CPU
// other processes and the hypervisor took during its window, whether
// that disturbed it, and how many times it was measured.
func interferenceCSVColumns() []string {
	return []string{"others_cpus", "steal_cpus", "disturbed", "attempts"}
}

// labEraCSVHeader is the header of files written before the harness, band
// and calibration columns, which ReadCSV still reads.
func labEraCSVHeader() []string {
	return append(modelEraCSVHeader(), labCSVColumns()...)
}

// bandCSVColumns are the harness ("talk" or empty), a go-policy
// prediction's band and the calibration it used (empty for the rest).
func bandCSVColumns() []string {
	return []string{"harness", "runtime", "thr_lo", "thr_hi", "p50_lo", "p50_hi",
		"calibration.host", "calibration.date", "calibration.others_cpus", "calibration.forced", "calibration.costs"}
}

// codeCSVColumns are the columns of points measured on the user's code: a
// study's name, and a Go benchmark's part, its values unit=value pairs
// separated by semicolons, in the line's order.
func codeCSVColumns() []string {
	return []string{"study", "bench.name", "bench.pkg", "bench.iters", "bench.values"}
}

// modelEraCSVHeader is the header of files written before the labs'
// columns, which ReadCSV still reads.
func modelEraCSVHeader() []string {
	return append(legacyCSVHeader(), modelCSVColumns()...)
}

// labCSVColumns are the columns only labs' points fill; metrics are
// name=value pairs separated by semicolons, in name order.
func labCSVColumns() []string { return []string{"lab", "variant", "metrics"} }

// modelCSVColumns are the columns only model points fill: measurements
// leave them empty.
func modelCSVColumns() []string {
	return []string{"sched", "seed", "bounds.cpu", "bounds.structural", "bounds.throughput_max", "bounds.latency_min_ms",
		"bounds.resource", "bounds.limit", "bounds.little"}
}

// legacyCSVHeader is the header of CSV files written before the model's
// columns, which ReadCSV still reads.
func legacyCSVHeader() []string {
	h := []string{"source", "mode", "cpus", "cpuset", "par", "rate", "maxq", "dur_s", "warmup_s", "rep",
		"ops", "errors", "drops", "throughput", "unit", "cpu_used", "util"}
	for _, prefix := range []string{"latency_ms", "service_ms"} {
		for _, k := range latencyKeys() {
			h = append(h, prefix+"."+k)
		}
	}
	return append(h, "machines",
		"steps.grind_ms", "steps.press_ms", "steps.steam_ms", "steps.latte_ms", "steps.jitter_ms", "steps.clock",
		"host.name", "host.cpu_model", "host.cores", "host.go_version", "host.os", "host.arch", "start")
}

func latencyKeys() []string {
	return []string{"min", "p05", "p25", "p50", "p75", "p90", "p95", "p99", "max", "mean"}
}

func (l Latency) values() []float64 {
	return []float64{l.Min, l.P05, l.P25, l.P50, l.P75, l.P90, l.P95, l.P99, l.Max, l.Mean}
}

// WriteCSV writes a header and one row per point. The histogram is left
// out: a CSV file is for spreadsheets, and ReadCSV gives points without one.
func WriteCSV(w io.Writer, points []Point) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader()); err != nil {
		return err
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	for _, p := range points {
		row := []string{p.Source, p.Mode, strconv.Itoa(p.CPUs), p.CPUSet, strconv.Itoa(p.Par), num(p.Rate),
			strconv.Itoa(p.MaxQ), num(p.DurS), num(p.WarmupS), strconv.Itoa(p.Rep), fmt.Sprint(p.Ops), fmt.Sprint(p.Errors),
			fmt.Sprint(p.Drops), num(p.Throughput), p.Unit, num(p.CPUUsed), num(p.Util)}
		for _, v := range p.Latency.values() {
			row = append(row, num(v))
		}
		row = append(row, serviceCells(p.Service, num)...)
		// A point without a shop part (a lab's) has the zero steps, as
		// lab points always had in CSV.
		shop := Shop{}
		if p.Shop != nil {
			shop = *p.Shop
		}
		var ms []string
		for _, m := range shop.Machines {
			ms = append(ms, fmt.Sprintf("%s:%d:%s:%s", m.Name, m.Uses, num(m.BusyFrac), num(m.MeanWaitMs)))
		}
		st := shop.Steps
		row = append(row, strings.Join(ms, ";"),
			num(st.GrindMs), num(st.PressMs), num(st.SteamMs), num(st.LatteMs), num(st.JitterMs), st.Clock,
			p.Host.Name, p.Host.CPUModel, strconv.Itoa(p.Host.Cores), p.Host.GoVersion, p.Host.OS, p.Host.Arch,
			p.Start.Format(time.RFC3339Nano))
		row = append(row, modelCells(p, num)...)
		row = append(row, p.Lab.Name, p.Variant, metricsCell(p.Metrics, num))
		row = append(row, bandCells(p, num)...)
		row = append(row, codeCells(p, num)...)
		row = append(row, num(p.OthersCPUs), num(p.StealCPUs), strconv.FormatBool(p.IsDisturbed()), strconv.Itoa(p.Attempts))
		row = append(row, inferenceCells(p)...)
		row = append(row, steadyCells(p)...)
		if err := p.CheckFinite(); err != nil {
			return err
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// steadyCells are the cells of steadyCSVColumns: empty where there is
// nothing to say (no bounds, or a closed loop).
func steadyCells(p Point) []string {
	if p.Bounds == nil || p.Bounds.Arrived == 0 && p.Bounds.Growth == 0 {
		return []string{"", ""}
	}
	return []string{strconv.Itoa(p.Bounds.Arrived), strconv.Itoa(p.Bounds.Growth)}
}

// serviceCells is empty cells for a closed loop, which has no separate
// service time.
func serviceCells(s *Latency, num func(float64) string) []string {
	cells := make([]string, len(latencyKeys()))
	if s == nil {
		return cells
	}
	for i, v := range s.values() {
		cells[i] = num(v)
	}
	return cells
}

// metricsCell writes a lab's metrics as "a=1;b=2", in name order, so that
// the same point gives the same row.
func metricsCell(m map[Metric]float64, num func(float64) string) string {
	keys := slices.Sorted(maps.Keys(m))
	cells := make([]string, len(keys))
	for i, k := range keys {
		cells[i] = string(k) + "=" + num(m[k])
	}
	return strings.Join(cells, ";")
}

// codeCells are the cells of a study's or a Go benchmark's point.
func codeCells(p Point, num func(float64) string) []string {
	cells := make([]string, len(codeCSVColumns()))
	cells[0] = p.Study
	if b := p.Bench; b != nil {
		values := make([]string, len(b.Values))
		for i, v := range b.Values {
			values[i] = v.Unit + "=" + num(v.Value)
		}
		cells[1], cells[2], cells[3], cells[4] = b.Name, b.Pkg, strconv.FormatInt(b.Iters, 10), strings.Join(values, ";")
	}
	return cells
}

// modelCells are the model's cells of p, empty for a measurement.
func modelCells(p Point, num func(float64) string) []string {
	cells := make([]string, len(modelCSVColumns()))
	cells[0] = p.Sched
	if p.Seed != 0 {
		cells[1] = strconv.FormatUint(p.Seed, 10)
	}
	if b := p.Bounds; b != nil {
		copy(cells[2:], []string{num(b.CPU), num(b.Structural), num(b.ThroughputMax), num(b.LatencyMinMs), b.Resource, b.Limit, num(b.Little)})
	}
	return cells
}

// inferenceCells are the files p's costs were inferred from and how
// many configurations of theirs, empty where they were not inferred.
func inferenceCells(p Point) []string {
	c := p.Calibration
	if c == nil || len(c.InferredFrom) == 0 {
		return []string{"", ""}
	}
	return []string{strings.Join(c.InferredFrom, ";"), strconv.Itoa(c.Points)}
}

// bandCells are p's harness, band and calibration cells.
func bandCells(p Point, num func(float64) string) []string {
	cells := make([]string, len(bandCSVColumns()))
	cells[0], cells[1] = p.Harness, p.Runtime
	if b := p.Band; b != nil {
		cells[2], cells[3], cells[4], cells[5] = num(b.Throughput[0]), num(b.Throughput[1]), num(b.P50Ms[0]), num(b.P50Ms[1])
	}
	if c := p.Calibration; c != nil {
		cells[6], cells[8], cells[9], cells[10] = c.Host, num(c.Others), strconv.FormatBool(c.Forced), c.Costs
		if !c.Date.IsZero() {
			cells[7] = c.Date.Format(time.RFC3339)
		}
	}
	return cells
}

// ReadCSV reads what WriteCSV writes: the header, checked column by column,
// then a point per row. A header without the model's columns, from before
// them, is read too, its points having no model fields. CSV holds no histogram, so Hist is ""; a closed
// loop's empty service cells give a nil Service. An error names the line
// and the column it could not read.
func ReadCSV(r io.Reader) ([]Point, error) {
	points, _, err := readCSV(r)
	return points, err
}

// readCSV is ReadCSV, with notes on what it accepted: columns after
// brewput's, which a newer version wrote, are ignored.
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
		p.Tidy()
		points = append(points, p)
	}
}

// readHeaders are the headers ReadCSV reads: this version's and each
// earlier one's. Each era only added columns, so each is of a length of
// its own, and a header's length says which era it should be.
func readHeaders() [][]string {
	return [][]string{csvHeader(), inferenceEraCSVHeader(), interferenceEraCSVHeader(), codeEraCSVHeader(), bandEraCSVHeader(), labEraCSVHeader(),
		modelEraCSVHeader(), legacyCSVHeader()}
}

// isCSVHeader reports whether line is a header ReadCSV reads.
func isCSVHeader(line string) bool {
	return slices.ContainsFunc(readHeaders(), func(h []string) bool { return line == strings.Join(h, ",") })
}

// isNewerCSVHeader reports whether line is this version's header with
// columns after it: a newer version's.
func isNewerCSVHeader(line string) bool {
	_, ok := newerCSVColumns(strings.Split(line, ","))
	return ok
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

// checkCSVHeader tells how a header differs from brewput's, so that a CSV
// file from elsewhere, or from a brewput with other columns, is named as such.
// The header of a file from before the model's columns passes.
func checkCSVHeader(got []string) error {
	want := csvHeader()
	for _, h := range readHeaders() {
		if len(h) == len(got) {
			want = h
			break
		}
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
// first error, so that point reads as a list of fields.
type csvRow struct {
	rec []string
	col map[string]int
	pos func(field int) (line, column int)
	err error
}

// point reads the row's point; see row.err for what failed.
func (r *csvRow) point() Point {
	p := Point{
		Source: r.str("source"), Mode: r.str("mode"), CPUs: r.int("cpus"), CPUSet: r.str("cpuset"),
		Par: r.int("par"), Rate: r.float("rate"), MaxQ: r.int("maxq"),
		DurS: r.float("dur_s"), WarmupS: r.float("warmup_s"), Rep: r.int("rep"),
		Ops: r.int64("ops"), Errors: r.int64("errors"), Drops: r.int64("drops"),
		Throughput: r.float("throughput"), Unit: r.str("unit"), CPUUsed: r.float("cpu_used"), Util: r.float("util"),
		Latency: r.latency("latency_ms"),
		Shop: &Shop{Machines: r.machines(),
			Steps: Steps{GrindMs: r.float("steps.grind_ms"), PressMs: r.float("steps.press_ms"), SteamMs: r.float("steps.steam_ms"),
				LatteMs: r.float("steps.latte_ms"), JitterMs: r.float("steps.jitter_ms"), Clock: r.str("steps.clock")}},
		Host: Host{Name: r.str("host.name"), CPUModel: r.str("host.cpu_model"), Cores: r.int("host.cores"),
			GoVersion: r.str("host.go_version"), OS: r.str("host.os"), Arch: r.str("host.arch")},
	}
	if !r.empty("service_ms") {
		svc := r.latency("service_ms")
		p.Service = &svc
	}
	p.Sched = r.str("sched")
	if r.str("seed") != "" {
		seed, err := strconv.ParseUint(r.str("seed"), 10, 64)
		if err != nil {
			r.fail("seed", "%q is not a seed, a whole number from 0", r.str("seed"))
		}
		p.Seed = seed
	}
	if r.str("bounds.throughput_max") != "" {
		p.Bounds = &Bounds{CPU: r.float("bounds.cpu"), Structural: r.float("bounds.structural"),
			ThroughputMax: r.float("bounds.throughput_max"), LatencyMinMs: r.float("bounds.latency_min_ms"),
			Resource: r.str("bounds.resource"), Limit: r.str("bounds.limit"), Little: r.float("bounds.little"),
			Arrived: r.count("bounds.arrived"), Growth: r.count("bounds.growth")}
	}
	p.Lab.Name, p.Variant = r.str("lab"), r.str("variant")
	if cell := r.str("metrics"); cell != "" {
		p.Metrics = map[Metric]float64{}
		for _, kv := range strings.Split(cell, ";") {
			k, v, ok := strings.Cut(kv, "=")
			f, err := strconv.ParseFloat(v, 64)
			if !ok || k == "" || err != nil {
				r.fail("metrics", "%q is not name=number", kv)
				break
			}
			p.Metrics[Metric(k)] = f
		}
	}
	p.Harness, p.Runtime = r.str("harness"), r.str("runtime")
	if r.str("thr_lo") != "" {
		p.Band = &Band{Throughput: [2]float64{r.float("thr_lo"), r.float("thr_hi")}, P50Ms: [2]float64{r.float("p50_lo"), r.float("p50_hi")}}
	}
	if r.str("calibration.costs") != "" {
		c := &Calibration{Host: r.str("calibration.host"), Others: r.float("calibration.others_cpus"), Costs: r.str("calibration.costs")}
		c.Forced = r.str("calibration.forced") == "true"
		if d := r.str("calibration.date"); d != "" {
			var err error
			if c.Date, err = time.Parse(time.RFC3339, d); err != nil {
				r.fail("calibration.date", "%q is not an RFC 3339 time", d)
			}
		}
		if from := r.str("calibration.inferred_from"); from != "" {
			c.InferredFrom, c.Points = strings.Split(from, ";"), r.int("calibration.points")
		}
		p.Calibration = c
	}
	p.Study = r.str("study")
	if name := r.str("bench.name"); name != "" {
		p.Bench = &Benchmark{Name: name, Pkg: r.str("bench.pkg"), Iters: r.int64("bench.iters")}
		if cell := r.str("bench.values"); cell != "" {
			for _, uv := range strings.Split(cell, ";") {
				i := strings.LastIndexByte(uv, '=')
				var v float64
				var err error
				if i > 0 {
					v, err = strconv.ParseFloat(uv[i+1:], 64)
				}
				if i <= 0 || err != nil {
					r.fail("bench.values", "%q is not unit=number", uv)
					break
				}
				p.Bench.Values = append(p.Bench.Values, BenchValue{Value: v, Unit: uv[:i]})
			}
		}
	}
	if r.str("others_cpus") != "" {
		p.OthersCPUs, p.StealCPUs = r.float("others_cpus"), r.float("steal_cpus")
		p.Disturbed = r.str("disturbed") == "true"
		p.Attempts = r.int("attempts")
	}
	start, err := time.Parse(time.RFC3339Nano, r.str("start"))
	if err != nil {
		r.fail("start", "%q is not an RFC 3339 time", r.str("start"))
	}
	p.Start = start
	return p
}

// str is the cell of the named column, "" where the file has no such
// column (the model's, in a file from before them).
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

func (r *csvRow) float(name string) float64 {
	v, err := strconv.ParseFloat(r.str(name), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		r.fail(name, "%q is not a number", r.str(name))
	}
	return v
}

func (r *csvRow) int64(name string) int64 {
	v, err := strconv.ParseInt(r.str(name), 10, 64)
	if err != nil {
		if _, ferr := strconv.ParseFloat(r.str(name), 64); ferr == nil {
			r.fail(name, "%q is not a whole number", r.str(name))
		} else {
			r.fail(name, "%q is not a number", r.str(name))
		}
	}
	return v
}

func (r *csvRow) int(name string) int { return int(r.int64(name)) }

// count is a column's whole number, 0 where its cell is empty or the
// file's era has no such column.
func (r *csvRow) count(name string) int {
	if r.str(name) == "" {
		return 0
	}
	return r.int(name)
}

// empty reports whether every cell of a latency is empty, as the service
// time's are in a closed loop.
func (r *csvRow) empty(prefix string) bool {
	for _, k := range latencyKeys() {
		if r.str(prefix+"."+k) != "" {
			return false
		}
	}
	return true
}

func (r *csvRow) latency(prefix string) Latency {
	var v [10]float64
	for i, k := range latencyKeys() {
		v[i] = r.float(prefix + "." + k)
	}
	return Latency{Min: v[0], P05: v[1], P25: v[2], P50: v[3], P75: v[4], P90: v[5], P95: v[6], P99: v[7], Max: v[8], Mean: v[9]}
}

// machines reads the name:uses:busy_frac:mean_wait_ms entries. The numbers
// are the last three fields, so a name may hold a colon.
func (r *csvRow) machines() []Machine {
	ms := []Machine{}
	cell := r.str("machines")
	if cell == "" {
		return ms
	}
	for _, e := range strings.Split(cell, ";") {
		f := strings.Split(e, ":")
		n := len(f)
		if n < 4 {
			r.fail("machines", "%q is not name:uses:busy_frac:mean_wait_ms", e)
			return ms
		}
		uses, err1 := strconv.ParseInt(f[n-3], 10, 64)
		busy, err2 := strconv.ParseFloat(f[n-2], 64)
		wait, err3 := strconv.ParseFloat(f[n-1], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			r.fail("machines", "%q is not name:uses:busy_frac:mean_wait_ms", e)
			return ms
		}
		ms = append(ms, Machine{Name: strings.Join(f[:n-3], ":"), Uses: uses, BusyFrac: busy, MeanWaitMs: wait})
	}
	return ms
}
