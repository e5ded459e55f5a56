package report

import (
	"github.com/brewput/brewput/results/analysis"

	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// templates are the page and its sections' templates, a file for each
// kind of content (page.html.tmpl holds the page and the basic sections).
//
//go:embed *.html.tmpl
var templates embed.FS

// page is what index.html shows: a summary line and the sections in order.
// Each kind of content is a section of its own, rendered by the template
// of its name, so that a new kind (model predictions, bottlenecks, labs)
// is a new template and a new entry here.
type page struct {
	Summary  string
	Notes    []string // what a reader must know first: a run cut short, disturbed points
	Sections []section
}

type section struct {
	ID, Title string
	Body      template.HTML
	// Collapsed sections open on a click: the detail behind the answer,
	// kept whole but out of the way. Teaser says what is inside.
	Collapsed bool
	Teaser    string
}

// pageParts are what the page shows beside the points: the charts, the
// map of limits, the verdict, the schedule pictures and the labs.
type pageParts struct {
	charts    []chart
	heatmap   chart
	verdict   analysis.Verdict
	schedules []scheduleView
	labs      []labView
	benches   []benchView
}

// newPage lays out the page's content from the points and their charts,
// numbers already formatted for people, so that the template holds no
// logic. The answer comes first — the verdict, the map of what limits
// what, the schedule pictures, the charts — then each mode's detail and,
// collapsed, how the points were made, every point and every machine. A
// study's points (the user's own code, package study) get the same order
// with no causal claim: the verdict says what each variant measured, the
// map of limits leaves them out, and "What each variant measured" sets
// the variants side by side where the shop's modes have their detail. Go
// benchmarks keep their section after the labs'.
func newPage(points []results.Point, parts pageParts, opt Options) pageContent {
	others, _ := results.SplitBench(points)
	shop, _, _ := results.SplitLabs(others)
	var sections []sectionContent
	if len(shop) == 0 && slices.ContainsFunc(parts.benches, func(b benchView) bool { return len(b.Sentences) > 0 }) {
		// Benchmarks alone: their answer first, family by family.
		sections = append(sections, sectionContent{id: "verdict", title: "The answer", template: "benchanswer", data: parts.benches})
	}
	if len(points) > 0 && len(shop) == 0 {
		sections = append(sections, sectionContent{id: "machine", title: "Machine", template: "machine", data: hosts(points)})
	}
	if len(shop) > 0 {
		// A study's points share the shop's charts and tables, but are not
		// explained: they are described, variant by variant (see
		// variantViews).
		var coffee, studies []results.Point
		for _, p := range shop {
			if p.Kind() == results.KindStudy {
				studies = append(studies, p)
			} else {
				coffee = append(coffee, p)
			}
		}
		model := slices.ContainsFunc(shop, results.Point.IsModel)
		if !parts.verdict.Empty() {
			sections = append(sections, sectionContent{id: "verdict", title: "The answer", template: "verdict", data: newVerdictView(parts.verdict, opt.Playground)})
		}
		if len(coffee) > 0 {
			sections = append(sections, sectionContent{id: "limits", title: "What limits what", template: "heatmap", data: heatmapView(parts.heatmap)})
		}
		if len(parts.schedules) > 0 {
			sections = append(sections, sectionContent{id: "schedule", title: "The schedule: which step ran on which CPU", template: "schedules", data: parts.schedules})
		}
		sections = append(sections, sectionContent{id: "charts", title: "Charts", template: "charts", data: captioned(chartViews(parts.charts, model), shop)})
		if len(coffee) > 0 {
			sections = append(sections, sectionContent{id: "modes", title: "Each mode in detail", template: "modes", data: modeViews(coffee, opt.Analysis, parts.verdict),
				teaser: "what limits it at each point, how it scales, what the model advises, where goroutines waited"})
		}
		if measured := slices.DeleteFunc(slices.Clone(studies), results.Point.IsModel); len(measured) > 0 {
			sections = append(sections, sectionContent{id: "variants", title: "What each variant measured", template: "variants", data: variantViews(measured, opt.Analysis)})
		}
		machines, machinesTeaser := "Machines: utilization and waits", "how long each machine was held and working, and how long customers waited for it"
		if len(coffee) == 0 {
			machines, machinesTeaser = "Meters: time held and waits", "how long each metered resource was held, and how long callers waited for it"
		}
		sections = append(sections,
			sectionContent{id: "setup", title: "How these points were made", template: "setup", collapsed: true,
				teaser: "machine, model and parameters",
				data:   setupView{Hosts: hosts(points), Models: models(shop), Model: model, Params: parameters(shop)}},
			sectionContent{id: "points", title: "Every point", template: "points", data: pointsTable(shop), collapsed: true,
				teaser: fmt.Sprintf("%s, a row each (also in results.json and results.csv)", format.Count(len(shop), "point"))},
			sectionContent{id: "machines", title: machines, template: "machines", data: machinesView{Tables: machineTables(shop), Meters: len(coffee) == 0}, collapsed: true,
				teaser: machinesTeaser},
		)
	}
	if len(parts.labs) > 0 {
		sections = append(sections, sectionContent{id: "labs", title: "Labs", template: "labs", data: parts.labs})
	}
	if len(parts.benches) > 0 {
		sections = append(sections, sectionContent{id: "benchmarks", title: "Go benchmarks", template: "benchmarks", data: parts.benches})
	}
	if len(opt.Lessons) > 0 {
		sections = append(sections, sectionContent{id: "lessons", title: lessonsTitle, template: "lessons", data: lessonViews(opt.Lessons)})
	}
	if len(points) == 0 {
		return pageContent{summary: "the seeds' claims: " + lesson.Tally(opt.Lessons), sections: sections}
	}
	return pageContent{summary: summary(points), notes: pageNotes(points, opt), sections: sections}
}

// setupView is how the points were made: the machines, the model's
// runs and the parameters.
type setupView struct {
	Hosts  []hostView
	Models []modelView
	Model  bool
	Params paramsView
}

// pageContent is the page before its sections are rendered.
type pageContent struct {
	summary  string
	notes    []string
	sections []sectionContent
}

// pageNotes are the notes at the top of the page: that the run was cut
// short, and how far it got (opt.Plan), and which points other processes
// disturbed, drawn hollow.
func pageNotes(points []results.Point, opt Options) []string {
	var notes []string
	if opt.Plan != nil {
		notes = append(notes, results.CutShort(*opt.Plan, points))
	}
	n := 0
	for _, p := range points {
		if p.IsDisturbed() {
			n++
		}
	}
	if n > 0 {
		were := fmt.Sprintf("%d of the %d points were", n, len(points))
		if n == 1 {
			were = fmt.Sprintf("1 of the %d points was", len(points))
		}
		notes = append(notes, fmt.Sprintf("◦ %s disturbed: other processes took more than %.1f CPU beyond the cores they left free while they were measured, so their numbers say more about the machine than about the design; the charts draw them hollow and the tables mark them ◦.",
			were, results.DisturbedCPUs))
	}
	return notes
}

type sectionContent struct {
	id, title, template string
	data                any
	collapsed           bool
	teaser              string
}

// renderPage executes each section's template, then the page around them.
func renderPage(w io.Writer, pc pageContent) error {
	t, err := template.New("report").ParseFS(templates, "*.html.tmpl")
	if err != nil {
		return err
	}
	p := page{Summary: pc.summary, Notes: pc.notes}
	for _, s := range pc.sections {
		var body bytes.Buffer
		if err := t.ExecuteTemplate(&body, s.template, s.data); err != nil {
			return fmt.Errorf("section %s: %w", s.id, err)
		}
		p.Sections = append(p.Sections, section{ID: s.id, Title: s.title, Body: template.HTML(body.String()), Collapsed: s.collapsed, Teaser: s.teaser})
	}
	return t.ExecuteTemplate(w, "page", p)
}

// summary says in one line what the report holds, and how much of it was
// measured and on which machines, how much predicted by the model.
func summary(points []results.Point) string {
	var modes, machines []string
	var cpus []int
	predicted := 0
	for _, p := range points {
		modes = appendNew(modes, p.Mode)
		if p.IsModel() {
			predicted++
		} else {
			machines = appendNew(machines, p.Origin())
		}
		if !slices.Contains(cpus, p.CPUs) {
			cpus = append(cpus, p.CPUs)
		}
	}
	slices.Sort(cpus)
	mode, point := "mode", "point"
	switch {
	case !slices.ContainsFunc(points, func(p results.Point) bool { return p.Kind() != results.KindStudy }):
		mode = "variant" // a study's modes are its variants
	case !slices.ContainsFunc(points, func(p results.Point) bool { return p.Kind() != results.KindBench }):
		mode, point = "benchmark", "run" // a Go benchmark's points are its runs
	}
	what := fmt.Sprintf("%s of %s on %s", format.Count(len(points), point), format.Count(len(modes), mode), cpuRange(cpus))
	switch {
	case predicted == 0:
		return fmt.Sprintf("%s, measured on %s", what, strings.Join(machines, ", "))
	case predicted == len(points):
		return what + ", predicted by the model"
	}
	return fmt.Sprintf("%s: %d measured on %s, %d predicted by the model",
		what, len(points)-predicted, strings.Join(machines, ", "), predicted)
}

type hostView struct {
	Source, CPUModel, GoVersion, System string
	Cores, Points                       int
}

// hosts lists each machine that measured points, with what it is; the
// model's points ran on none that matters, and are left to the Model
// section.
func hosts(points []results.Point) []hostView {
	var out []hostView
	index := map[hostView]int{}
	for _, p := range points {
		if p.IsModel() {
			continue
		}
		h := hostView{Source: p.Origin(), CPUModel: p.Host.CPUModel, GoVersion: p.Host.GoVersion,
			System: p.Host.OS + "/" + p.Host.Arch, Cores: p.Host.Cores}
		i, ok := index[h]
		if !ok {
			i = len(out)
			index[h] = i
			out = append(out, h)
		}
		out[i].Points++
	}
	return out
}

type modelView struct {
	Sched, Modes, CPUs, Seeds string
	Points                    int
	// Calibration names the calibration of the go policy's costs, one
	// line per calibration the points used; Banded says the points carry
	// bands.
	Calibration []string
	Banded      bool
}

// models describes the model's points, a line per scheduling policy.
func models(points []results.Point) []modelView {
	type group struct {
		modes  []string
		cpus   []int
		seeds  []uint64
		n      int
		points []results.Point
		banded bool
	}
	var scheds []string
	groups := map[string]*group{}
	for _, p := range points {
		if !p.IsModel() {
			continue
		}
		g := groups[p.Sched]
		if g == nil {
			g = &group{}
			groups[p.Sched] = g
			scheds = append(scheds, p.Sched)
		}
		g.n++
		g.points = append(g.points, p)
		g.banded = g.banded || p.Band != nil
		g.modes = appendNew(g.modes, p.Mode)
		if !slices.Contains(g.cpus, p.CPUs) {
			g.cpus = append(g.cpus, p.CPUs)
		}
		if !slices.Contains(g.seeds, p.Seed) {
			g.seeds = append(g.seeds, p.Seed)
		}
	}
	out := make([]modelView, len(scheds))
	for i, sc := range scheds {
		g := groups[sc]
		slices.Sort(g.cpus)
		slices.Sort(g.seeds)
		seeds := make([]string, len(g.seeds))
		for j, s := range g.seeds {
			seeds[j] = fmt.Sprint(s)
		}
		if sc == "" {
			sc = "not recorded"
		}
		out[i] = modelView{Sched: sc, Modes: strings.Join(g.modes, ", "), CPUs: cpuRange(g.cpus),
			Seeds: strings.Join(seeds, ", "), Points: g.n,
			Calibration: results.CalibrationLines(g.points), Banded: g.banded}
	}
	return out
}

type paramView struct {
	Kind, Modes, CPUs, Load, Timing, Steps string
	Reps, Points                           int
}

// paramsView is the parameters section: its lines, and whether they say
// which are measured and which the model's.
type paramsView struct {
	Kinds bool
	Rows  []paramView
}

// parameters groups the points by everything that was set for them other
// than mode and CPU count, so a single run shows as one line; the model's
// points never share a line with measured ones.
func parameters(points []results.Point) paramsView {
	type group struct {
		view  paramView
		modes []string
		cpus  []int
		reps  int
	}
	var groups []*group
	index := map[[4]string]*group{}
	kinds := false
	for _, p := range points {
		kind := "measured"
		if p.IsModel() {
			kind, kinds = "model", true
		}
		stepsText := steps(p.Steps)
		if p.Kind() == results.KindStudy {
			stepsText = "- (the study's own code)"
		}
		key := [4]string{kind, describeLoad(p), timing(p), stepsText}
		g, ok := index[key]
		if !ok {
			g = &group{view: paramView{Kind: key[0], Load: key[1], Timing: key[2], Steps: key[3]}}
			index[key] = g
			groups = append(groups, g)
		}
		g.view.Points++
		g.modes = appendNew(g.modes, p.Mode)
		if !slices.Contains(g.cpus, p.CPUs) {
			g.cpus = append(g.cpus, p.CPUs)
		}
		g.reps = max(g.reps, p.Rep, 1)
	}
	out := make([]paramView, len(groups))
	for i, g := range groups {
		slices.Sort(g.cpus)
		g.view.Modes = strings.Join(g.modes, ", ")
		g.view.CPUs = cpuRange(g.cpus)
		g.view.Reps = g.reps
		out[i] = g.view
	}
	return paramsView{Kinds: kinds, Rows: out}
}

// describeLoad says how customers came: a closed loop of Par customers or an
// open loop of arrivals at Rate.
func describeLoad(p results.Point) string {
	orders, customer := "orders", "customer"
	if p.Kind() == results.KindStudy { // the user's code has calls and workers
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

func timing(p results.Point) string {
	if p.IsModel() {
		return fmt.Sprintf("%gs, %gs per point, simulated", p.WarmupS, p.DurS)
	}
	return fmt.Sprintf("%gs, %gs per point", p.WarmupS, p.DurS)
}

func steps(s results.Steps) string {
	text := fmt.Sprintf("grind %g ms, press %g ms, steam %g ms, latte %g ms", s.GrindMs, s.PressMs, s.SteamMs, s.LatteMs)
	if s.JitterMs > 0 {
		text += fmt.Sprintf(", jitter ±%g ms", s.JitterMs/2)
	}
	if s.Clock != "" {
		text += ", burning " + s.Clock + " time"
	}
	return text
}

type chartView struct {
	Name, Title, Caption, Empty string
	Src                         template.URL
	// Natural pictures are shown at their own size (or less), wide ones
	// across the page.
	Natural bool
}

// chartViews inlines each chart's SVG as a data URL, so index.html shows
// its charts even when copied on its own; the files beside it are for
// slides and documents. model says whether the charts show the model's
// points, which the captions then explain.
func chartViews(charts []chart, model bool) []chartView {
	out := make([]chartView, len(charts))
	for i, c := range charts {
		out[i] = imageView(c, caption(c.Name, model))
	}
	return out
}

// captioned gives the charts of a study's points (package study), whose
// operations are no lattes, captions in the study's terms; the shop's
// keep theirs.
func captioned(views []chartView, points []results.Point) []chartView {
	for _, p := range points {
		if p.Kind() != results.KindStudy {
			return views
		}
	}
	for i := range views {
		views[i].Caption = studyCaption(views[i].Name)
	}
	return views
}

// studyCaption says what to look for in a study's chart.
func studyCaption(name string) string {
	switch name {
	case "throughput":
		return "Operations per second against CPUs, one line per variant. A line that keeps rising scales with the CPUs; one that flattens or falls gains nothing from more of them. Why is not something this chart, or brewput, can tell of your code: below, each variant's meters say how long its locks were held and waited for, and variants that differ in one change show what that change did."
	case "latency":
		return "Median time of one operation against CPUs, from call to return."
	case "scalability":
		return fitCaption(false)
	case "distribution":
		return "The spread of one operation's latency at the largest CPU count: the box holds the middle half of the operations (p25 to p75), the line in it is the median, the whiskers reach from p5 to p95."
	}
	return ""
}

// caption says what to look for in each chart; with the model's points,
// how to tell them from the measurements.
func caption(name string, model bool) string {
	text, overlay := "", ""
	switch name {
	case "throughput":
		text = "Lattes per second against CPUs, one line per mode. A line that keeps rising scales with the CPUs; one that flattens has hit a structural limit (a lock, a machine, a pipeline stage) that more CPUs do not remove."
		overlay = " Markers are measurements; the dashed line in the same colour is the model's prediction for that mode, which goes on past the CPUs measured."
	case "latency":
		text = "Median time from order to latte against CPUs. Where throughput stops rising, customers queue instead, and the median grows."
		overlay = " Markers are measurements; dashed lines the model's predictions."
	case "scalability":
		text = fitCaption(model)
	case "distribution":
		text = "The spread of latencies at the largest CPU count: the box holds the middle half of the lattes (p25 to p75), the line in it is the median, the whiskers reach from p5 to p95."
		overlay = " Where a mode was measured and predicted, its row holds both: the measurement above, the model's prediction (dashed) below."
	}
	if model {
		text += overlay
	}
	return text
}

type column struct {
	Name string
	Text bool
}

type cell struct {
	Value string
	Text  bool
}

type tableView struct {
	Head []column
	Rows []rowView
	// Model says that some rows are the model's, which the page then
	// explains; NoErrors that no point had an error, which the page says
	// instead of a column of zeros.
	Model, NoErrors bool
}

// rowView is a table row; a model's is marked, for people and for tests.
type rowView struct {
	Model bool
	Cells []cell
}

// pointsTable lists every point, one row each, in the order measured.
// Columns that would be the same empty value on every row are left out.
// The model's rows are marked, say "model" and its policy in the source
// column, and fill the bound columns.
func pointsTable(points []results.Point) tableView {
	var openLoop, reps, manySources, model, errors, units bool
	for _, p := range points {
		openLoop = openLoop || p.Rate > 0
		reps = reps || p.Rep > 0
		manySources = manySources || p.Origin() != points[0].Origin()
		model = model || p.IsModel()
		errors = errors || p.Errors != 0
		units = units || p.Unit != points[0].Unit
	}
	t := tableView{Model: model, NoErrors: !errors}
	add := func(name string, text bool) { t.Head = append(t.Head, column{name, text}) }
	if manySources || model {
		add("source", true)
	}
	mode, customers := "mode", "customers"
	if !slices.ContainsFunc(points, func(p results.Point) bool { return p.Kind() != results.KindStudy }) {
		mode, customers = "variant", "workers" // a study's
	}
	add(mode, true)
	add("CPUs", false)
	add(customers, false)
	if reps {
		add("rep", false)
	}
	if openLoop {
		add("rate /s", false)
		add("drops", false)
	}
	if units {
		add("throughput", false)
	} else {
		add(points[0].Unit, false)
	}
	if model {
		add("bound", false)
	}
	for _, h := range []string{"mean ms", "p5 ms", "p25 ms", "p50 ms", "p75 ms", "p95 ms", "p99 ms"} {
		add(h, false)
	}
	if model {
		add("min ms", false)
	}
	add("CPU util", false)
	if errors {
		add("errors", false)
	}
	for _, p := range points {
		row := rowView{Model: p.IsModel()}
		put := func(v string, text bool) { row.Cells = append(row.Cells, cell{v, text}) }
		if manySources || model {
			put(results.OriginLabel(p), true)
		}
		put(p.Mode, true)
		put(fmt.Sprint(p.CPUs), false)
		put(fmt.Sprint(p.Par), false)
		if reps {
			put(fmt.Sprint(max(p.Rep, 1)), false)
		}
		if openLoop {
			put(fmt.Sprintf("%g", p.Rate), false)
			put(fmt.Sprint(p.Drops), false)
		}
		l := p.Latency
		thr := fmt.Sprintf("%.1f", p.Throughput)
		if units {
			thr += " " + p.Unit
		}
		if p.IsDisturbed() {
			thr += " ◦" // the hollow marker of the charts; see the page's note
		}
		put(thr, false)
		if model {
			put(results.FormatBound(p.Bounds), false)
		}
		for _, v := range []float64{l.Mean, l.P05, l.P25, l.P50, l.P75, l.P95, l.P99} {
			put(format.Ms(v), false)
		}
		if model {
			if p.Bounds != nil {
				put(format.Ms(p.Bounds.LatencyMinMs), false)
			} else {
				put("-", false)
			}
		}
		put(fmt.Sprintf("%.0f %%", 100*p.Util), false)
		if errors {
			put(fmt.Sprint(p.Errors), false)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// machinesView is the section of machines, or of a study's meters.
type machinesView struct {
	Tables []machineTable
	// Meters says the tables are a study's meters, not the shop's machines.
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

// machineTables shows, for each mode, how long each of its machines was
// held and working, and
// how long customers waited for it, at each CPU count; repetitions are
// summarized by their median.
func machineTables(points []results.Point) []machineTable {
	points = poolMeters(points)
	type key struct {
		label string
		cpus  int
	}
	var labels []string
	names := map[string][]string{}
	var cells []key
	byCell := map[key][]results.Point{}
	labelOf := map[seriesKey]string{}
	for _, s := range buildSeries(points) {
		labelOf[s.seriesKey] = s.Label
	}
	seriesOf := pars(points)
	for _, p := range points {
		for _, sk := range seriesOf(p) {
			l := labelOf[sk]
			if !slices.Contains(labels, l) {
				labels = append(labels, l)
			}
			for _, m := range p.Machines {
				names[l] = appendNew(names[l], m.Name)
			}
			k := key{l, p.CPUs}
			if _, ok := byCell[k]; !ok {
				cells = append(cells, k)
			}
			byCell[k] = append(byCell[k], p)
		}
	}
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].cpus < cells[j].cpus })

	out := make([]machineTable, len(labels))
	for i, l := range labels {
		out[i] = machineTable{Label: l, Names: names[l]}
		for _, k := range cells {
			if k.label != l {
				continue
			}
			ps := byCell[k]
			row := machineRow{CPUs: k.cpus, Util: fmt.Sprintf("%.0f %%", 100*medianOf(ps, func(p results.Point) float64 { return p.Util }))}
			for _, name := range names[l] {
				held := medianOf(ps, func(p results.Point) float64 { return machine(p, name).BusyFrac })
				working := medianOf(ps, func(p results.Point) float64 { return machine(p, name).WorkingFrac })
				wait := medianOf(ps, func(p results.Point) float64 { return machine(p, name).MeanWaitMs })
				c := machineCell{Held: fmt.Sprintf("%.0f %%", 100*held), Working: "-", Wait: fmt.Sprintf("%.2f ms", wait)}
				if ps[0].Kind() == results.KindStudy { // a user's lock, waited for nanoseconds
					c.Wait = format.Wait(wait)
				}
				if working > 0 {
					c.Working = fmt.Sprintf("%.0f %%", 100*working)
				}
				row.Cells = append(row.Cells, c)
			}
			out[i].Rows = append(out[i].Rows, row)
		}
	}
	return out
}

// poolMeters makes the copies of each of a study's meters ("shard#1" to
// "shard#16", a sharded map's mutexes) one machine, "shard ×16", as
// text.Describe speaks of them: the mean of their time held, their
// uses summed and the wait per use over all of them; one column where
// sixteen would not fit the page. The shop's points are left as they are.
func poolMeters(points []results.Point) []results.Point {
	out := make([]results.Point, len(points))
	for i, p := range points {
		out[i] = p
		if p.Kind() != results.KindStudy || p.Shop == nil {
			continue
		}
		var kinds []string
		by := map[string][]results.Machine{}
		for _, m := range p.Machines {
			k := analysis.Kind(m.Name)
			if _, ok := by[k]; !ok {
				kinds = append(kinds, k)
			}
			by[k] = append(by[k], m)
		}
		var pooled []results.Machine
		for _, k := range kinds {
			ms := by[k]
			if len(ms) == 1 {
				pooled = append(pooled, ms[0])
				continue
			}
			m := results.Machine{Name: fmt.Sprintf("%s ×%d", k, len(ms)), Kind: ms[0].Kind}
			waited := 0.0
			for _, c := range ms {
				m.Uses += c.Uses
				m.BusyFrac += c.BusyFrac / float64(len(ms))
				m.WorkingFrac += c.WorkingFrac / float64(len(ms))
				waited += c.MeanWaitMs * float64(c.Uses)
			}
			if m.Uses > 0 {
				m.MeanWaitMs = waited / float64(m.Uses)
			}
			pooled = append(pooled, m)
		}
		shop := *p.Shop
		shop.Machines = pooled
		out[i].Shop = &shop
	}
	return out
}

func machine(p results.Point, name string) results.Machine {
	for _, m := range p.Machines {
		if m.Name == name {
			return m
		}
	}
	return results.Machine{Name: name}
}

// medianOf is the median of f over points.
func medianOf(points []results.Point, f func(results.Point) float64) float64 {
	vs := make([]float64, len(points))
	for i, p := range points {
		vs[i] = f(p)
	}
	return results.Median(vs)
}

// cpuRange writes sorted CPU counts compactly: "1–4", "1, 2, 8".
func cpuRange(cpus []int) string {
	if len(cpus) > 2 && cpus[len(cpus)-1]-cpus[0] == len(cpus)-1 {
		return fmt.Sprintf("%d–%d CPUs", cpus[0], cpus[len(cpus)-1])
	}
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = fmt.Sprint(c)
	}
	if len(cpus) == 1 && cpus[0] == 1 {
		return "1 CPU"
	}
	return strings.Join(s, ", ") + " CPUs"
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
