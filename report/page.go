package report

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

//go:embed *.html.tmpl
var templates embed.FS // a file per kind of section

// page is index.html: a summary line, the notes to read first, sections.
type page struct {
	Summary  string
	Notes    []string
	Sections []section
}

// section is a part of the page, rendered into Body from its template and
// data; a Collapsed one opens on a click, Teaser saying what is inside.
type section struct {
	ID, Title string
	Body      template.HTML
	Collapsed bool
	Teaser    string
	template  string
	data      any
}

// pageParts are what the page shows beside the points; shop are those
// neither a lab's nor a Go benchmark's.
type pageParts struct {
	shop      []results.Point
	charts    []chart
	heatmap   chart
	verdict   analysis.Verdict
	schedules []scheduleView
	labs      []labView
	benches   []benchView
}

// newPage lays out the page, numbers formatted so that templates hold no
// logic.
func newPage(points []results.Point, parts pageParts, opt Options) page {
	shop := parts.shop
	var sections []section
	if len(shop) == 0 && slices.ContainsFunc(parts.benches, func(b benchView) bool { return len(b.Sentences) > 0 }) {
		// Benchmarks alone: their answer first, family by family.
		sections = append(sections, section{ID: "verdict", Title: "The answer", template: "benchanswer", data: parts.benches})
	}
	if len(points) > 0 && len(shop) == 0 {
		sections = append(sections, section{ID: "machine", Title: "Machine", template: "machine", data: hosts(points)})
	}
	if len(shop) > 0 {
		// A study's points share the shop's charts but are described, not
		// explained (variantViews).
		isStudy := func(p results.Point) bool { return p.Kind == results.KindStudy }
		coffee := slices.DeleteFunc(slices.Clone(shop), isStudy)
		studies := slices.DeleteFunc(slices.Clone(shop), func(p results.Point) bool { return !isStudy(p) || p.IsModel() })
		model := slices.ContainsFunc(shop, results.Point.IsModel)
		if !parts.verdict.Empty() {
			sections = append(sections, section{ID: "verdict", Title: "The answer", template: "verdict", data: newVerdictView(parts.verdict, opt.Playground, opt.Modes)})
		}
		if len(coffee) > 0 {
			sections = append(sections, section{ID: "limits", Title: "What limits what", template: "heatmap", data: heatmapView(parts.heatmap)})
		}
		if len(parts.schedules) > 0 {
			sections = append(sections, section{ID: "schedule", Title: "The schedule: which step ran on which CPU", template: "schedules", data: parts.schedules})
		}
		sections = append(sections, section{ID: "charts", Title: "Charts", template: "charts", data: chartViews(parts.charts, model, len(coffee) == 0)})
		if len(coffee) > 0 {
			sections = append(sections, section{ID: "modes", Title: "Each mode in detail", template: "modes", data: modeViews(coffee, opt.Analysis, parts.verdict),
				Teaser: "what limits it at each point, how it scales, what the model advises, where goroutines waited"})
		}
		if len(studies) > 0 {
			sections = append(sections, section{ID: "variants", Title: "What each variant measured", template: "variants", data: variantViews(studies, opt.Analysis)})
		}
		machines, machinesTeaser := "Machines: utilization and waits", "how long each machine was held and working, and how long customers waited for it"
		if len(coffee) == 0 {
			machines, machinesTeaser = "Meters: time held and waits", "how long each metered resource was held, and how long callers waited for it"
		}
		sections = append(sections,
			section{ID: "setup", Title: "How these points were made", template: "setup", Collapsed: true,
				Teaser: "machine, model and parameters",
				data:   setupView{Hosts: hosts(points), Models: models(shop), Model: model, Params: parameters(shop)}},
			section{ID: "points", Title: "Every point", template: "points", data: pointsTable(shop), Collapsed: true,
				Teaser: fmt.Sprintf("%s, a row each (also in results.json and results.csv)", format.Count(len(shop), "point"))},
			section{ID: "machines", Title: machines, template: "machines", data: machinesView{Tables: machineTables(shop), Meters: len(coffee) == 0}, Collapsed: true,
				Teaser: machinesTeaser},
		)
	}
	if len(parts.labs) > 0 {
		sections = append(sections, section{ID: "labs", Title: "Labs", template: "labs", data: parts.labs})
	}
	if len(parts.benches) > 0 {
		sections = append(sections, section{ID: "benchmarks", Title: "Go benchmarks", template: "benchmarks", data: parts.benches})
	}
	if _, benches := results.SplitBench(points); slices.ContainsFunc(benches, func(p results.Point) bool { return p.Bench.Watched }) {
		sections = append(sections, section{ID: "locks", Title: "The locks they took", template: "locks", data: text.LockTable(benches, lockTableWidth)})
	}
	if len(opt.Lessons) > 0 {
		sections = append(sections, section{ID: "lessons", Title: "What the seeds claim, and what this machine shows", template: "lessons", data: lessonViews(opt.Lessons)})
	}
	if len(points) == 0 {
		return page{Summary: "the seeds' claims: " + text.LessonTally(opt.Lessons), Sections: sections}
	}
	hasMap := slices.ContainsFunc(sections, func(s section) bool { return s.template == "heatmap" })
	return page{Summary: summary(points), Notes: pageNotes(points, opt, hasMap), Sections: sections}
}

// lockTableWidth is the columns the page's lock table is wrapped at, as
// the terminal's is at its width.
const lockTableWidth = 100

// setupView is how the points were made.
type setupView struct {
	Hosts  []hostView
	Models []modelView
	Model  bool
	Params paramsView
}

// disturbedMark marks a disturbed measurement on every surface of the
// page; a hollow marker is a prediction.
const disturbedMark = "×"

// pageNotes say how far a cut-short run got and which measurements other
// processes disturbed, and which of the page's pictures mark them.
func pageNotes(points []results.Point, opt Options, hasMap bool) []string {
	var notes []string
	if opt.Plan != nil {
		notes = append(notes, text.CutShort(*opt.Plan, points))
	}
	// Only a measurement is disturbed: the model's points are not counted.
	measured := slices.DeleteFunc(slices.Clone(points), results.Point.IsModel)
	n := collect.Count(measured, results.Point.IsDisturbed)
	if n > 0 {
		of := fmt.Sprintf("the %d points", len(measured))
		if len(measured) < len(points) {
			of = fmt.Sprintf("the %d measured points", len(measured))
		}
		// Repeated runs (--count) are drawn as one point: the note says at how
		// many points, lest "13 of the 90" be read against 18 drawn.
		at := len(distinct(measured, func(p results.Point) string {
			return fmt.Sprint(p.Mode, p.CPUs, p.Par, p.Rate, p.MaxQ, p.Host)
		}))
		if at < len(measured) {
			of = fmt.Sprintf("the %d runs measured at %d %s", len(measured), at, format.Plural(at, "point"))
		}
		were := fmt.Sprintf("%d of %s were", n, of)
		if n == 1 {
			were = fmt.Sprintf("1 of %s was", of)
		}
		marked := "the charts and the tables"
		if hasMap {
			marked = "the charts, the tables and the map of limits"
		}
		notes = append(notes, fmt.Sprintf("%s %s disturbed: other processes took more than %.1f CPU of the CPUs they ran on (beyond those they left free, where not pinned) while they were measured, so their numbers say more about the machine than about the design; %s mark them %s.",
			disturbedMark, were, results.DisturbedCPUs, marked, disturbedMark))
	}
	return notes
}

// renderPage renders each section, then the page around them.
func renderPage(w io.Writer, p page) error {
	t, err := template.New("report").ParseFS(templates, "*.html.tmpl")
	if err != nil {
		return err
	}
	for i, s := range p.Sections {
		var body bytes.Buffer
		if err := t.ExecuteTemplate(&body, s.template, s.data); err != nil {
			return fmt.Errorf("section %s: %w", s.ID, err)
		}
		p.Sections[i].Body = template.HTML(body.String())
	}
	return t.ExecuteTemplate(w, "page", p)
}

// summary says in one line how much was measured, where, and predicted.
func summary(points []results.Point) string {
	measured := slices.DeleteFunc(slices.Clone(points), results.Point.IsModel)
	machines := distinct(measured, results.Point.Origin)
	predicted := len(points) - len(measured)
	mode, point := "mode", "point"
	switch {
	case !slices.ContainsFunc(points, func(p results.Point) bool { return p.Kind != results.KindStudy }):
		mode = "variant" // a study's modes are its variants
	case !slices.ContainsFunc(points, func(p results.Point) bool { return p.Kind != results.KindBench }):
		mode, point = "benchmark", "run" // a Go benchmark's points are its runs
	}
	what := fmt.Sprintf("%s of %s on %s", format.Count(len(points), point), format.Count(len(modeOrder(points)), mode), cpuRange(cpusOf(points)))
	switch {
	case predicted == 0:
		return what + ", " + text.MeasuredOnHosts(machines)
	case predicted == len(points):
		return what + ", predicted by the model"
	}
	return fmt.Sprintf("%s: %d %s, %d predicted by the model",
		what, len(measured), text.MeasuredOnHosts(machines), predicted)
}

type hostView struct {
	Source, CPUModel, GoVersion, System string
	Cores, Points                       int
}

// hosts lists each machine that measured points.
func hosts(points []results.Point) []hostView {
	measured := slices.DeleteFunc(slices.Clone(points), results.Point.IsModel)
	out, by := groupBy(measured, func(p results.Point) hostView {
		return hostView{Source: p.Origin(), CPUModel: p.Host.CPUModel, GoVersion: p.Host.GoVersion,
			System: p.Host.OS + "/" + p.Host.Arch, Cores: p.Host.Cores}
	})
	for i, h := range out {
		out[i].Points = len(by[h])
	}
	return out
}

type modelView struct {
	Sched, Modes, CPUs, Seeds string
	Points                    int
	// Calibration is a line per calibration of the go policy's costs used;
	// Banded says the points carry bands.
	Calibration []string
	Banded      bool
}

// models describes the model's points, a line per scheduling policy.
func models(points []results.Point) []modelView {
	predicted := slices.DeleteFunc(slices.Clone(points), func(p results.Point) bool { return !p.IsModel() })
	scheds, by := groupBy(predicted, func(p results.Point) string { return p.Sched })
	return collect.Mapped(scheds, func(sc string) modelView {
		ps := by[sc]
		seeds := distinct(ps, func(p results.Point) uint64 { return p.Seed })
		slices.Sort(seeds)
		words := collect.Mapped(seeds, func(s uint64) string { return strconv.FormatUint(s, 10) })
		return modelView{Sched: cmp.Or(sc, "not recorded"), Modes: strings.Join(modeOrder(ps), ", "), CPUs: cpuRange(cpusOf(ps)),
			Seeds: strings.Join(words, ", "), Points: len(ps), Calibration: text.CalibrationLines(ps),
			Banded: slices.ContainsFunc(ps, func(p results.Point) bool { return p.Band != nil })}
	})
}

type paramView struct {
	Kind, Modes, CPUs, Load, Timing, Steps string
	Reps, Points                           int
}

// paramsView is the parameters section; Kinds says it tells measured from
// predicted.
type paramsView struct {
	Kinds bool
	Rows  []paramView
}

// parameters groups points by all settings but mode and CPUs, a run a
// line; the model's points never share a line with measured ones.
func parameters(points []results.Point) paramsView {
	keys, by := groupBy(points, func(p results.Point) paramView {
		kind, stepsText := "measured", steps(p.Steps())
		timing := fmt.Sprintf("%gs, %gs per point", p.Warmup.Seconds(), p.Dur.Seconds())
		if p.IsModel() {
			kind, timing = "model", timing+", simulated"
		}
		if p.Kind == results.KindStudy {
			stepsText = "- (the study's own code)"
		}
		return paramView{Kind: kind, Load: describeLoad(p), Timing: timing, Steps: stepsText}
	})
	rows := collect.Mapped(keys, func(k paramView) paramView {
		ps := by[k]
		k.Modes, k.CPUs, k.Points = strings.Join(modeOrder(ps), ", "), cpuRange(cpusOf(ps)), len(ps)
		for _, p := range ps {
			k.Reps = max(k.Reps, p.Rep, 1)
		}
		return k
	})
	return paramsView{Kinds: slices.ContainsFunc(points, results.Point.IsModel), Rows: rows}
}

// describeLoad says how customers came: a closed or an open loop.
func describeLoad(p results.Point) string {
	orders, customer := "orders", "customer"
	if p.Kind == results.KindStudy { // the user's code has calls and workers
		orders, customer = "calls", "worker"
	}
	if p.Rate > 0 {
		return fmt.Sprintf("open loop: %g %s/s, %d servers, queue of at most %d", p.Rate, orders, p.Par, p.MaxQ)
	}
	if p.Par == p.CPUs {
		return fmt.Sprintf("closed loop: one %s per CPU", customer)
	}
	return fmt.Sprintf("closed loop: %s", format.Count(p.Par, customer))
}

func steps(s results.Steps) string {
	ms := results.Ms
	text := fmt.Sprintf("grind %g ms, press %g ms, steam %g ms, latte %g ms", ms(s.Grind), ms(s.Press), ms(s.Steam), ms(s.Combine))
	if s.Jitter > 0 {
		text += fmt.Sprintf(", jitter ±%g ms", ms(s.Jitter)/2)
	}
	if s.Clock != "" {
		text += ", burning " + s.Clock + " time"
	}
	return text
}

type chartView struct {
	Name, Title, Caption, Empty string
	Src                         template.URL
	PhoneSrc                    template.Srcset // the picture laid out for a phone, where it has one: one data URL, no comma after it
	// Natural pictures show at their own size (or less), others page-wide.
	Natural bool
}

// chartViews lays out each chart under a caption saying what to look for.
func chartViews(charts []chart, model, study bool) []chartView {
	return collect.Mapped(charts, func(c chart) chartView { return imageView(c, caption(c.Name, model, study)) })
}

// caption says what to look for in chart name: the shop's words, with
// the model's overlay said where it draws one, or a study's.
func caption(name string, model, study bool) string {
	if name == "scalability" {
		return fitCaption(model && !study)
	}
	words := map[string][3]string{ // the shop's, the overlay, a study's
		"throughput": {"Lattes per second against CPUs, one line per mode. A line that keeps rising scales with the CPUs; one that flattens has hit a structural limit (a lock, a machine, a pipeline stage) that more CPUs do not remove.",
			" Markers are measurements; the dashed line in the same colour is the model's prediction for that mode, which goes on past the CPUs measured.",
			"Operations per second against CPUs, one line per variant. A line that keeps rising scales with the CPUs; one that flattens or falls gains nothing from more of them. Why is not something this chart, or brewput, can tell of your code: below, each variant's meters say how long its locks were held and waited for, and variants that differ in one change show what that change did."},
		"latency": {"Median time from order to latte against CPUs. Where throughput stops rising, customers queue instead, and the median grows.",
			" Markers are measurements; dashed lines the model's predictions.",
			"Median time of one operation against CPUs, from call to return."},
		"comparison": {"Lattes per second at the same CPU count as the latencies beside it, a bar per mode: the talk's comparison of the designs.",
			" Where a mode was measured and predicted, its row holds both: the measurement above, the model's prediction (light, framed) below.",
			"Operations per second at the same CPU count as the latencies beside it, a bar per variant."},
		"distribution": {"The spread of latencies at the CPU count its title names: the box holds the middle half of the lattes (p25 to p75), the line in it is the median, the whiskers reach from p5 to p95.",
			" Where a mode was measured and predicted, its row holds both: the measurement above, the model's prediction (dashed) below.",
			"The spread of one operation's latency at the CPU count its title names: the box holds the middle half of the operations (p25 to p75), the line in it is the median, the whiskers reach from p5 to p95."},
	}[name]
	switch {
	case study:
		return words[2]
	case model:
		return words[0] + words[1]
	}
	return words[0]
}

// column is a table's column: Text ones hold words, aligned left.
type column struct {
	Name string
	Text bool
}

type tableView struct {
	Head []column
	Rows []rowView
	// Model says some rows are the model's; NoErrors that no point had an
	// error, which the page says instead of a column of zeros.
	Model, NoErrors bool
}

// rowView is a table row, a cell per column, a model's marked.
type rowView struct {
	Model bool
	Cells []string
}

// pointColumn is a column of a table of points, its cell of a point, and
// whether the table leaves it out.
type pointColumn struct {
	column
	value  func(results.Point) string
	hidden bool
}

func col(name string, text bool, value func(results.Point) string) pointColumn {
	return pointColumn{column: column{name, text}, value: value}
}

// when is c, left out of its table unless shown.
func (c pointColumn) when(shown bool) pointColumn {
	c.hidden = !shown
	return c
}

// pointTable lays points out in the columns not hidden.
func pointTable(points []results.Point, cols []pointColumn) tableView {
	cols = slices.DeleteFunc(slices.Clone(cols), func(c pointColumn) bool { return c.hidden })
	t := tableView{Head: collect.Mapped(cols, func(c pointColumn) column { return c.column })}
	for _, p := range points {
		t.Rows = append(t.Rows, rowView{Model: p.IsModel(), Cells: collect.Mapped(cols, func(c pointColumn) string { return c.value(p) })})
	}
	return t
}

func msColumn(name string, f func(results.Latency) float64) pointColumn {
	return col(name, false, func(p results.Point) string { return format.Ms(f(p.Latency)) })
}

// measureColumns are the columns of the measures (results.Columns) by key,
// and those of them not in placed, which a table shows after its own.
func measureColumns(points []results.Point, placed ...results.Metric) (byKey map[results.Metric]pointColumn, others []pointColumn) {
	byKey = map[results.Metric]pointColumn{}
	for _, c := range results.Columns() {
		byKey[c.Key] = col(c.HeadText(), false, c.Cell).when(c.ShownIn(points))
		if !slices.Contains(placed, c.Key) {
			others = append(others, byKey[c.Key])
		}
	}
	return byKey, others
}

// pointsTable lists every point, leaving out columns empty on every row.
func pointsTable(points []results.Point) tableView {
	has := func(f func(results.Point) bool) bool { return slices.ContainsFunc(points, f) }
	model := has(results.Point.IsModel)
	units := varies(points, func(p results.Point) string { return p.Unit })
	open := has(func(p results.Point) bool { return p.Rate > 0 })
	measures, others := measureColumns(points, results.Drops, results.Util, results.Errors)
	errors := !measures[results.Errors].hidden
	mode, customers := "mode", "customers"
	if !has(func(p results.Point) bool { return p.Kind != results.KindStudy }) {
		mode, customers = "variant", "workers" // a study's
	}
	thr := col(points[0].Unit, false, func(p results.Point) string {
		s := fmt.Sprintf("%.1f", p.Throughput)
		if units {
			s += " " + p.Unit
		}
		if p.IsDisturbed() {
			s += " " + disturbedMark // as the charts mark it; see the page's note
		}
		return s
	})
	if units {
		thr.Name = "throughput"
	}
	cols := []pointColumn{
		col("source", true, results.OriginLabel).when(model || varies(points, results.Point.Origin)),
		col(mode, true, func(p results.Point) string { return p.Mode }),
		col("CPUs", false, func(p results.Point) string { return strconv.Itoa(p.CPUs) }),
		col(customers, false, func(p results.Point) string { return strconv.Itoa(p.Par) }),
		col("rep", false, func(p results.Point) string { return strconv.Itoa(max(p.Rep, 1)) }).when(has(func(p results.Point) bool { return p.Rep > 0 })),
		col("rate /s", false, func(p results.Point) string { return fmt.Sprintf("%g", p.Rate) }).when(open),
		measures[results.Drops],
		thr,
		// A prediction's band, as the charts shade it.
		col("band", false, func(p results.Point) string {
			if p.Band == nil {
				return "-"
			}
			return format.Range(fmt.Sprintf("%.0f", p.Band.Throughput[0]), fmt.Sprintf("%.0f", p.Band.Throughput[1]))
		}).when(has(func(p results.Point) bool { return p.Band != nil })),
		col("ceiling", false, func(p results.Point) string { return text.FormatBound(p.Bounds) }).when(model),
		msColumn("mean ms", func(l results.Latency) float64 { return l.Mean }),
		msColumn("p5 ms", func(l results.Latency) float64 { return l.P05 }),
		msColumn("p25 ms", func(l results.Latency) float64 { return l.P25 }),
		msColumn("p50 ms", func(l results.Latency) float64 { return l.P50 }),
		msColumn("p75 ms", func(l results.Latency) float64 { return l.P75 }),
		msColumn("p95 ms", func(l results.Latency) float64 { return l.P95 }),
		msColumn("p99 ms", func(l results.Latency) float64 { return l.P99 }),
		col("min ms", false, func(p results.Point) string {
			if p.Bounds == nil {
				return "-"
			}
			return format.Ms(p.Bounds.LatencyMinMs)
		}).when(model),
		measures[results.Util],
		measures[results.Errors],
	}
	// The notes on a point, as the terminal's table has them.
	cols = append(append(cols, others...), col("notes", true, text.Notes).when(has(func(p results.Point) bool { return text.Notes(p) != "" })))
	t := pointTable(points, cols)
	t.Model, t.NoErrors = model, !errors
	return t
}

// machinesView is the section of machines, or of a study's meters (Meters).
type machinesView struct {
	Tables []machineTable
	Meters bool
}

type machineTable struct {
	Label string
	Names []string
	Rows  []machineRow
}

type machineRow struct {
	CPUs  int
	Cells []machineCell
	Util  string
}

type machineCell struct{ Held, Working, Wait string }

// machineTables shows for each series, at each CPU count, how long each
// machine was held and working and waited for: medians of repetitions.
func machineTables(points []results.Point) []machineTable {
	points = poolMeters(points)
	keys, byKey := bySeries(points)
	labelOf := map[seriesKey]string{}
	for _, s := range buildSeries(points, nil) { // labels: no colours or groups
		labelOf[s.seriesKey] = s.Label
	}
	labels, keysOf := groupBy(keys, func(k seriesKey) string { return labelOf[k] })
	out := make([]machineTable, len(labels))
	for i, l := range labels {
		var ps []results.Point
		for _, k := range keysOf[l] {
			ps = append(ps, byKey[k]...)
		}
		for _, p := range ps {
			for _, m := range p.Machines() {
				out[i].Names = collect.AppendNew(out[i].Names, m.Name)
			}
		}
		out[i].Label = l
		_, byCPUs := groupBy(ps, func(p results.Point) int { return p.CPUs })
		for _, n := range cpusOf(ps) {
			ps := byCPUs[n]
			row := machineRow{CPUs: n, Util: format.Percent(medianOf(ps, func(p results.Point) float64 { return p.Metrics[results.Util] }), 0)}
			for _, name := range out[i].Names {
				med := func(f func(results.Machine) float64) float64 {
					return medianOf(ps, func(p results.Point) float64 { return f(machine(p, name)) })
				}
				wait := med(func(m results.Machine) float64 { return m.MeanWaitMs })
				c := machineCell{Held: format.Percent(med(func(m results.Machine) float64 { return m.BusyFrac }), 0),
					Working: "-", Wait: fmt.Sprintf("%.2f ms", wait)}
				if ps[0].Kind == results.KindStudy { // a user's lock, waited for nanoseconds
					c.Wait = format.Wait(wait)
				}
				if working := med(func(m results.Machine) float64 { return m.WorkingFrac }); working > 0 {
					c.Working = format.Percent(working, 0)
				}
				row.Cells = append(row.Cells, c)
			}
			out[i].Rows = append(out[i].Rows, row)
		}
	}
	return out
}

// poolMeters makes a study's copies of a meter ("shard#1" …) one machine,
// "shard ×16", as analysis.Resources pools them.
func poolMeters(points []results.Point) []results.Point {
	out := slices.Clone(points)
	for i, p := range out {
		if p.Kind != results.KindStudy || p.Study == nil {
			continue
		}
		var pooled []results.Machine
		for _, r := range analysis.Resources(p)[1:] {
			if r.Copies == 1 {
				pooled = append(pooled, p.Machines()[slices.IndexFunc(p.Machines(), func(m results.Machine) bool { return analysis.Kind(m.Name) == r.Name })])
				continue
			}
			pooled = append(pooled, results.Machine{Name: fmt.Sprintf("%s ×%d", r.Name, r.Copies), Kind: r.Meter, Uses: r.Uses,
				BusyFrac: r.Utilization, WorkingFrac: r.Working, MeanWaitMs: r.MeanWaitMs})
		}
		out[i].Study = &results.Study{Name: p.Study.Name, Meters: pooled}
	}
	return out
}

func machine(p results.Point, name string) results.Machine {
	if i := slices.IndexFunc(p.Machines(), func(m results.Machine) bool { return m.Name == name }); i >= 0 {
		return p.Machines()[i]
	}
	return results.Machine{Name: name}
}

// cpuRange writes sorted CPU counts: "1–4 CPUs", "1, 2, 8 CPUs", "1 CPU".
func cpuRange(cpus []int) string {
	s := format.Ints(cpus, ", ")
	if n := len(cpus); n > 2 && cpus[n-1]-cpus[0] == n-1 {
		s = fmt.Sprintf("%d–%d", cpus[0], cpus[n-1])
	}
	if s == "1" {
		return "1 CPU"
	}
	return s + " CPUs"
}

// imageView inlines a chart as a data URL, so that the page shows it even
// copied on its own.
func imageView(c chart, caption string) chartView {
	v := chartView{Name: c.Name, Title: c.Title, Caption: caption, Empty: c.Empty, Natural: !c.Wide}
	if c.Empty == "" {
		v.Src = template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(c.SVG))
		if c.Phone != nil {
			v.PhoneSrc = template.Srcset("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(c.Phone))
		}
	}
	return v
}
