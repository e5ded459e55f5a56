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

// csvHeader lists the CSV columns: the JSON keys, nested ones joined with
// a dot (a part's without the part's name: a lab's "lab" and "variant",
// a study's "study"). The machines, or a study's meters, share one column
// of name:uses:busy_frac:mean_wait_ms entries separated by semicolons; a
// calibration's costs one of name:median_ns:lo_ns:hi_ns entries.
func csvHeader() []string {
	h := []string{"kind", "source", "mode", "cpus", "cpuset", "par", "rate", "maxq", "dur_s", "warmup_s", "rep", "harness",
		"sched", "seed", "runtime", "burn", "background.cpus", "background.burst_ms",
		"ops", "errors", "drops", "throughput", "unit", "cpu_used", "util"}
	h = append(append(h, latencyColumns("latency_ms")...), latencyColumns("service_ms")...)
	return append(h, "bounds.cpu", "bounds.structural", "bounds.throughput_max", "bounds.latency_min_ms", "bounds.resource",
		"bounds.limit", "bounds.little", "bounds.arrived", "bounds.growth", "thr_lo", "thr_hi", "p50_lo", "p50_hi",
		"disturbed", "others_cpus", "steal_cpus", "attempts",
		"calibration.host", "calibration.date", "calibration.others_cpus", "calibration.forced", "calibration.costs",
		"calibration.given", "calibration.inferred_from", "calibration.points",
		"machines", "steps.grind_ms", "steps.press_ms", "steps.steam_ms", "steps.combine_ms", "steps.jitter_ms", "steps.clock",
		"lab", "variant", "metrics", "study", "bench.name", "bench.pkg", "bench.iters", "bench.values",
		"host.name", "host.cpu_model", "host.cores", "host.go_version", "host.os", "host.arch", "start")
}

func latencyKeys() []string {
	return []string{"min", "p05", "p25", "p50", "p75", "p90", "p95", "p99", "max", "mean"}
}

// latencyColumns are a latency's columns under prefix.
func latencyColumns(prefix string) []string {
	var cols []string
	for _, k := range latencyKeys() {
		cols = append(cols, prefix+"."+k)
	}
	return cols
}

func (l Latency) values() []float64 {
	return []float64{l.Min, l.P05, l.P25, l.P50, l.P75, l.P90, l.P95, l.P99, l.Max, l.Mean}
}

// WriteCSV writes a header and one row per point. The histogram, the
// bottleneck and the waits are left out: a CSV file is for spreadsheets.
func WriteCSV(w io.Writer, points []Point) error {
	cw := csv.NewWriter(w)
	header := csvHeader()
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, p := range points {
		if err := p.CheckFinite(); err != nil {
			return err
		}
		cells := csvCells(p)
		row := make([]string, len(header))
		for i, name := range header {
			row[i] = cells[name]
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// csvCells are p's cells by column; a column p has nothing for is empty.
func csvCells(p Point) map[string]string {
	itoa := strconv.Itoa
	h := p.Host
	c := map[string]string{"kind": p.Kind.String(), "source": p.Source, "mode": p.Mode, "cpus": itoa(p.CPUs), "cpuset": p.CPUSet,
		"par": itoa(p.Par), "rate": num(p.Rate), "maxq": itoa(p.MaxQ), "dur_s": num(p.Dur.Seconds()),
		"warmup_s": num(p.Warmup.Seconds()), "rep": itoa(p.Rep), "harness": p.Harness,
		"sched": p.Sched, "runtime": p.Runtime, "burn": p.Burn,
		"ops": fmt.Sprint(p.Ops), "errors": fmt.Sprint(p.Errors), "drops": fmt.Sprint(p.Drops), "throughput": num(p.Throughput),
		"unit": p.Unit, "cpu_used": num(p.CPUUsed), "util": num(p.Util),
		"disturbed": strconv.FormatBool(p.IsDisturbed()), "others_cpus": num(p.OthersCPUs), "steal_cpus": num(p.StealCPUs),
		"attempts": itoa(p.Attempts), "host.name": h.Name, "host.cpu_model": h.CPUModel, "host.cores": itoa(h.Cores),
		"host.go_version": h.GoVersion, "host.os": h.OS, "host.arch": h.Arch, "start": p.Start.Format(time.RFC3339Nano)}
	if p.Seed != 0 {
		c["seed"] = strconv.FormatUint(p.Seed, 10)
	}
	if bg := p.Background; bg != (Background{}) {
		c["background.cpus"], c["background.burst_ms"] = num(bg.CPUs), num(Ms(bg.Burst))
	}
	for i, k := range latencyKeys() {
		c["latency_ms."+k] = num(p.Latency.values()[i])
		if p.Service != nil {
			c["service_ms."+k] = num(p.Service.values()[i])
		}
	}
	if b := p.Bounds; b != nil {
		for k, v := range map[string]float64{"cpu": b.CPU, "structural": b.Structural, "throughput_max": b.ThroughputMax,
			"latency_min_ms": b.LatencyMinMs, "little": b.Little} {
			c["bounds."+k] = num(v)
		}
		c["bounds.resource"], c["bounds.limit"] = b.Resource, b.Limit
		if b.Arrived != 0 || b.Growth != 0 {
			c["bounds.arrived"], c["bounds.growth"] = itoa(b.Arrived), itoa(b.Growth)
		}
	}
	if b := p.Band; b != nil {
		c["thr_lo"], c["thr_hi"], c["p50_lo"], c["p50_hi"] = num(b.Throughput[0]), num(b.Throughput[1]), num(b.P50Ms[0]), num(b.P50Ms[1])
	}
	if cal := p.Calibration; cal != nil {
		costs := make([]string, len(cal.Costs))
		for i, k := range cal.Costs {
			costs[i] = fmt.Sprintf("%s:%d:%d:%d", k.Name, k.Median, k.Lo, k.Hi)
		}
		c["calibration.host"], c["calibration.others_cpus"], c["calibration.forced"] = cal.Host, num(cal.Others), strconv.FormatBool(cal.Forced)
		c["calibration.costs"], c["calibration.given"] = strings.Join(costs, ";"), strings.Join(cal.Given, ";")
		if !cal.Date.IsZero() {
			c["calibration.date"] = cal.Date.Format(time.RFC3339)
		}
		if len(cal.InferredFrom) > 0 {
			c["calibration.inferred_from"], c["calibration.points"] = strings.Join(cal.InferredFrom, ";"), itoa(cal.Points)
		}
	}
	c["machines"] = machinesCell(p.Machines())
	switch p.Kind {
	case KindShop:
		if s := p.Shop; s != nil {
			st := s.Steps
			c["steps.grind_ms"], c["steps.press_ms"], c["steps.steam_ms"] = num(Ms(st.Grind)), num(Ms(st.Press)), num(Ms(st.Steam))
			c["steps.combine_ms"], c["steps.jitter_ms"], c["steps.clock"] = num(Ms(st.Combine)), num(Ms(st.Jitter)), st.Clock
		}
	case KindStudy:
		c["study"] = p.StudyName()
	case KindLab:
		if l := p.Lab; l != nil {
			c["lab"], c["variant"], c["metrics"] = l.Name, l.Variant, metricsCell(l.Metrics)
		}
	case KindBench:
		if b := p.Bench; b != nil {
			values := make([]string, len(b.Values))
			for i, v := range b.Values {
				values[i] = v.Unit + "=" + num(v.Value)
			}
			c["bench.name"], c["bench.pkg"], c["bench.iters"], c["bench.values"] = b.Name, b.Pkg, strconv.FormatInt(b.Iters, 10), strings.Join(values, ";")
		}
	}
	return c
}

// machinesCell writes machines as name:uses:busy_frac:mean_wait_ms
// entries separated by semicolons.
func machinesCell(ms []Machine) string {
	cells := make([]string, len(ms))
	for i, m := range ms {
		cells[i] = fmt.Sprintf("%s:%d:%s:%s", m.Name, m.Uses, num(m.BusyFrac), num(m.MeanWaitMs))
	}
	return strings.Join(cells, ";")
}

// metricsCell writes a lab's metrics as "a=1;b=2", in name order, so that
// the same point gives the same row.
func metricsCell(m map[Metric]float64) string {
	keys := slices.Sorted(maps.Keys(m))
	cells := make([]string, len(keys))
	for i, k := range keys {
		cells[i] = string(k) + "=" + num(m[k])
	}
	return strings.Join(cells, ";")
}

// ReadCSV reads what WriteCSV writes, and the CSV of schema 1 (see
// migrate_v1.go): the header, checked column by column, then a point per
// row. CSV holds no histogram, so Hist is ""; a closed loop's empty
// service cells give a nil Service. An error names the line and the
// column it could not read.
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
	v1 := slices.ContainsFunc(csvV1Headers(), func(h []string) bool { return slices.Equal(h, header) })
	if extra, ok := newerCSVColumns(header); ok {
		notes = append(notes, fmt.Sprintf("line 1: columns %s are not known to this version of brewput (a newer one wrote them?), ignored", strings.Join(extra, ", ")))
		cr.FieldsPerRecord = len(header)
	} else if err := checkCSVHeader(header); !v1 && err != nil {
		return nil, nil, fmt.Errorf("line 1: not brewput's CSV header: %w", err)
	}
	col := map[string]int{}
	for i, name := range header {
		if renamed, ok := csvV1Names()[name]; ok && v1 {
			name = renamed
		}
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
		row := &csvRow{rec: rec, col: col, pos: cr.FieldPos, v1: v1}
		p := row.point()
		if row.err != nil {
			return nil, nil, row.err
		}
		if p.Mode == "" || p.CPUs < 1 {
			line, _ := cr.FieldPos(0)
			return nil, nil, fmt.Errorf("line %d: not a brewput point: missing mode or cpus", line)
		}
		points = append(points, p)
	}
}

// isCSVHeader reports whether line is a header ReadCSV reads: this
// schema's, one of schema 1's, or this schema's with a newer version's
// columns after it.
func isCSVHeader(line string) bool {
	header := strings.Split(line, ",")
	_, newer := newerCSVColumns(header)
	return newer || slices.ContainsFunc(append(csvV1Headers(), csvHeader()), func(h []string) bool { return slices.Equal(h, header) })
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

// checkCSVHeader tells how a header differs from brewput's (schema 1's of
// its length, where it has no kind column), so that a CSV file from
// elsewhere, or from a brewput with other columns, is named as such.
func checkCSVHeader(got []string) error {
	want := csvHeader()
	if len(got) > 0 && got[0] != "kind" {
		hs := csvV1Headers()
		want = hs[len(hs)-1]
		for _, h := range hs {
			if len(h) == len(got) {
				want = h
			}
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
// first error, so that point reads as a list of fields. v1 says the
// record is of schema 1.
type csvRow struct {
	rec []string
	col map[string]int
	pos func(field int) (line, column int)
	v1  bool
	err error
}

// point reads the row's point; see row.err for what failed.
func (r *csvRow) point() Point {
	p := Point{Source: r.str("source"), Spec: Spec{Mode: r.str("mode"), CPUs: r.int("cpus"),
		Load: Load{Par: r.int("par"), Rate: r.float("rate"), MaxQ: r.int("maxq"), Dur: FromSeconds(r.float("dur_s")),
			Warmup: FromSeconds(r.float("warmup_s")), Harness: r.str("harness")},
		Policy: Policy{Sched: r.str("sched"), Runtime: r.str("runtime"), Burn: r.str("burn"),
			Background: Background{CPUs: r.opt("background.cpus"), Burst: FromMs(r.opt("background.burst_ms"))}}},
		Rep: r.int("rep"), CPUSet: r.str("cpuset"), Ops: r.int64("ops"), Errors: r.int64("errors"), Drops: r.int64("drops"),
		Throughput: r.float("throughput"), Unit: r.str("unit"), CPUUsed: r.float("cpu_used"), Util: r.float("util"),
		Latency: r.latency("latency_ms"),
		Host: Host{Name: r.str("host.name"), CPUModel: r.str("host.cpu_model"), Cores: r.int("host.cores"),
			GoVersion: r.str("host.go_version"), OS: r.str("host.os"), Arch: r.str("host.arch")},
	}
	if r.v1 {
		p.Kind = kindV1(r.str("lab"), r.str("bench.name") != "", r.str("study"))
	} else if k, ok := ParseKind(r.str("kind")); ok {
		p.Kind = k
	} else {
		r.fail("kind", "%q is not a kind of point: shop, lab, study or bench", r.str("kind"))
	}
	if !r.empty("service_ms") {
		svc := r.latency("service_ms")
		p.Service = &svc
	}
	if s := r.str("seed"); s != "" {
		var err error
		if p.Seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			r.fail("seed", "%q is not a seed, a whole number from 0", s)
		}
	}
	if r.str("bounds.throughput_max") != "" {
		p.Bounds = &Bounds{CPU: r.float("bounds.cpu"), Structural: r.float("bounds.structural"),
			ThroughputMax: r.float("bounds.throughput_max"), LatencyMinMs: r.float("bounds.latency_min_ms"),
			Resource: r.str("bounds.resource"), Limit: r.str("bounds.limit"), Little: r.float("bounds.little"),
			Arrived: int(r.opt("bounds.arrived")), Growth: int(r.opt("bounds.growth"))}
	}
	if r.str("thr_lo") != "" {
		p.Band = &Band{Throughput: [2]float64{r.float("thr_lo"), r.float("thr_hi")}, P50Ms: [2]float64{r.float("p50_lo"), r.float("p50_hi")}}
	}
	if r.str("others_cpus") != "" {
		p.Trust = Trust{OthersCPUs: r.float("others_cpus"), StealCPUs: r.float("steal_cpus"), Disturbed: r.str("disturbed") == "true", Attempts: r.int("attempts")}
	}
	if r.str("calibration.costs") != "" {
		p.Calibration = r.calibration()
	}
	switch p.Kind {
	case KindShop:
		p.Shop = &Shop{Machines: r.machines(), Steps: Steps{Grind: FromMs(r.float("steps.grind_ms")), Press: FromMs(r.float("steps.press_ms")),
			Steam: FromMs(r.float("steps.steam_ms")), Combine: FromMs(r.float("steps.combine_ms")), Jitter: FromMs(r.float("steps.jitter_ms")),
			Clock: r.str("steps.clock")}}
	case KindStudy:
		p.Study = &Study{Name: r.str("study"), Meters: r.machines()}
	case KindLab:
		p.Lab = &Lab{Name: r.str("lab"), Variant: r.str("variant")}
		names, values := r.pairs("metrics", "name")
		for i, k := range names {
			if p.Lab.Metrics == nil {
				p.Lab.Metrics = map[Metric]float64{}
			}
			p.Lab.Metrics[Metric(k)] = values[i]
		}
	case KindBench:
		p.Bench = &Benchmark{Name: r.str("bench.name"), Pkg: r.str("bench.pkg"), Iters: r.int64("bench.iters")}
		units, values := r.pairs("bench.values", "unit")
		for i, u := range units {
			p.Bench.Values = append(p.Bench.Values, BenchValue{Value: values[i], Unit: u})
		}
	}
	start, err := time.Parse(time.RFC3339Nano, r.str("start"))
	if err != nil {
		r.fail("start", "%q is not an RFC 3339 time", r.str("start"))
	}
	p.Start = start
	p.Assess()
	return p
}

// calibration reads the calibration's cells: its costs as schema 1's
// prose, or as name:median_ns:lo_ns:hi_ns entries.
func (r *csvRow) calibration() *Calibration {
	c := &Calibration{Host: r.str("calibration.host"), Others: r.float("calibration.others_cpus"), Forced: r.str("calibration.forced") == "true"}
	if d := r.str("calibration.date"); d != "" {
		var err error
		if c.Date, err = time.Parse(time.RFC3339, d); err != nil {
			r.fail("calibration.date", "%q is not an RFC 3339 time", d)
		}
	}
	if from := r.str("calibration.inferred_from"); from != "" {
		c.InferredFrom, c.Points = strings.Split(from, ";"), r.int("calibration.points")
	}
	if r.v1 {
		var err error
		if c.Costs, c.Given, err = costsV1(r.str("calibration.costs")); err != nil {
			r.fail("calibration.costs", "%v", err)
		}
		return c
	}
	if g := r.str("calibration.given"); g != "" {
		c.Given = strings.Split(g, ";")
	}
	for _, e := range strings.Split(r.str("calibration.costs"), ";") {
		f := strings.Split(e, ":")
		var ns [3]int64
		var err error
		for i := range ns {
			if len(f) == 4 && err == nil {
				ns[i], err = strconv.ParseInt(f[i+1], 10, 64)
			}
		}
		if len(f) != 4 || err != nil {
			r.fail("calibration.costs", "%q is not name:median_ns:lo_ns:hi_ns", e)
			break
		}
		c.Costs = append(c.Costs, Cost{Name: f[0], Median: time.Duration(ns[0]), Lo: time.Duration(ns[1]), Hi: time.Duration(ns[2])})
	}
	return c
}

// str is the cell of the named column, "" where the file has no such
// column (one of a later era, in a file of schema 1).
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

// opt is a column's number, 0 where its cell is empty.
func (r *csvRow) opt(name string) float64 {
	if r.str(name) == "" {
		return 0
	}
	return r.float(name)
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

// pairs reads a cell of name=number pairs separated by semicolons, in
// order (a lab's metrics, a benchmark's values: a unit may hold "=", so
// the number follows the last); nil for an empty cell.
func (r *csvRow) pairs(name, key string) (keys []string, values []float64) {
	cell := r.str(name)
	if cell == "" {
		return nil, nil
	}
	for _, kv := range strings.Split(cell, ";") {
		i := strings.LastIndexByte(kv, '=')
		var v float64
		var err error
		if i > 0 {
			v, err = strconv.ParseFloat(kv[i+1:], 64)
		}
		if i <= 0 || err != nil {
			r.fail(name, "%q is not %s=number", kv, key)
			return nil, nil
		}
		keys, values = append(keys, kv[:i]), append(values, v)
	}
	return keys, values
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
