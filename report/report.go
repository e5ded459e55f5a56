package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/report/chartspec"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/atomicfile"
	"github.com/brewput/brewput/report/schedule"
	"github.com/brewput/brewput/results"
)

// File is one file of a report, held in memory until written.
type File struct {
	Name string // base name, e.g. "index.html"
	Data []byte
}

// Report is a rendered report: its files, ready to write to a folder, and
// the points it shows, each with its bottleneck.
type Report struct {
	Files  []File
	Points []results.Point
}

// Index is the name of the report's page.
const Index = "index.html"

// staleCharts lists the chart files in dir that r does not hold: the
// shop's charts, the map of limits, every schedule picture ("schedule-*"),
// every lab's chart ("lab-*") and every Go benchmark's ("bench-*"), which
// are removed from the folder so that a chart left by an earlier run never
// sits beside a page
// that says there is none.
func (r *Report) staleCharts(dir string) ([]string, error) {
	have := map[string]bool{}
	for _, f := range r.Files {
		have[f.Name] = true
	}
	var names []string
	for _, c := range []string{"throughput", "latency", "distribution", "scalability", "limits"} {
		names = append(names, c+".svg", c+".png")
	}
	for _, ext := range []string{".svg", ".png"} {
		for _, prefix := range []string{"lab-", benchChartPrefix, "schedule-"} {
			found, err := filepath.Glob(filepath.Join(dir, prefix+"*"+ext))
			if err != nil {
				return nil, err
			}
			for _, l := range found {
				names = append(names, filepath.Base(l))
			}
		}
	}
	var stale []string
	for _, n := range names {
		if !have[n] {
			stale = append(stale, n)
		}
	}
	return stale, nil
}

// Options are what a report shows beside its points, computed elsewhere.
type Options struct {
	// Advice is the model's what-if advice, at most one per mode, shown in
	// the mode's section of the page.
	Advice []*limits.Advice
	// Figures are the labs' charts, by lab name (see lab/all); a lab
	// without one gets chartspec.Default.
	Figures map[string]chartspec.Figure
	// Lessons are the seeds' claims measured by brewput lessons: the
	// section "What the seeds claim, and what this machine shows", and
	// lessons.json beside results.json.
	Lessons []lesson.Result
	// Schedules are the schedule pictures (schedule.Pictures), drawn in
	// the section "The schedule" and as files schedule-MODE-NCPU-model
	// and -trace.
	Schedules []schedule.Picture
	// Plan is the plan of a run cut short (its journal's; see
	// results.Journal): the page says how far it got, and results.json
	// keeps the plan on its first line, for --resume. nil for a run that
	// finished.
	Plan *results.Plan
}

// Build renders points into a report: index.html, results.json (JSON
// Lines), results.csv and each chart as SVG and PNG. The points are kept in
// the order given, with the bottlenecks they carry: the report simulates
// nothing (limits.Annotate gives points their causal profiles first).
func Build(points []results.Point) (*Report, error) { return BuildWith(points, Options{}) }

// BuildWith is Build with opt's advice in the modes' sections and opt's
// lessons in theirs, written beside the points as lessons.json; with
// lessons, there may be no points.
func BuildWith(points []results.Point, opt Options) (*Report, error) {
	if len(points) == 0 && len(opt.Lessons) == 0 {
		return nil, errors.New("no points to report")
	}
	points = slices.Clone(points)
	for i := range points {
		points[i].Tidy()
	}
	others, benches := results.SplitBench(points)
	shop, labs, byLab := results.SplitLabs(others)
	var parts pageParts
	var charts []chart
	if len(shop) > 0 {
		var err error
		if parts.charts, err = drawCharts(shop); err != nil {
			return nil, fmt.Errorf("draw charts: %w", err)
		}
		// The map and the verdict's causal part are the shop's (NewGrid
		// leaves a study's points out); a study's variants are described.
		grid := verdict.NewGrid(shop)
		parts.verdict = verdict.OfGrid(grid)
		parts.verdict.Studies = verdict.Studies(shop)
		if parts.heatmap, err = heatmapChart(grid); err != nil {
			return nil, fmt.Errorf("draw the map of limits: %w", err)
		}
		var pics []chart
		if pics, parts.schedules, err = scheduleCharts(opt.Schedules); err != nil {
			return nil, err
		}
		charts = append(append(append(charts, parts.heatmap), parts.charts...), pics...)
	}
	labCharts, err := drawLabCharts(labs, byLab, opt)
	if err != nil {
		return nil, err
	}
	benchCharts, benchViews, err := drawBenchCharts(benches)
	if err != nil {
		return nil, err
	}
	parts.labs = labViews(labs, byLab, labCharts, opt)
	parts.benches = benchViews
	var page, jsonl, csv bytes.Buffer
	if err := renderPage(&page, newPage(points, parts, opt)); err != nil {
		return nil, fmt.Errorf("render %s: %w", Index, err)
	}
	if opt.Plan != nil {
		err = results.WriteJournal(&jsonl, *opt.Plan, points)
	} else {
		err = results.WriteJSON(&jsonl, points)
	}
	if err != nil {
		return nil, err
	}
	if err := results.WriteCSV(&csv, points); err != nil {
		return nil, err
	}
	r := &Report{Points: points, Files: []File{{Name: Index, Data: page.Bytes()}}}
	if len(points) > 0 {
		r.Files = append(r.Files, File{Name: "results.json", Data: jsonl.Bytes()}, File{Name: "results.csv", Data: csv.Bytes()})
	}
	if len(opt.Lessons) > 0 {
		f, err := lessonsFile(opt.Lessons)
		if err != nil {
			return nil, err
		}
		r.Files = append(r.Files, f)
	}
	for _, c := range slices.Concat(charts, labCharts, benchCharts) {
		if c.Empty == "" {
			r.Files = append(r.Files, File{c.Name + ".svg", c.SVG}, File{c.Name + ".png", c.PNG})
		}
	}
	return r, nil
}

// WriteDir writes the report's files into dir, creating it if needed. Each
// file is written to a temporary name and renamed into place, so a reader
// never sees half a file; chart files the report does not hold are
// removed. The page is written last, once everything it shows is there.
func (r *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create report folder: %w", err)
	}
	var index *File
	for i, f := range r.Files {
		if f.Name == Index {
			index = &r.Files[i]
			continue
		}
		if err := writeAtomic(filepath.Join(dir, f.Name), f.Data); err != nil {
			return err
		}
	}
	stale, err := r.staleCharts(dir)
	if err != nil {
		return err
	}
	for _, name := range stale {
		err := os.Remove(filepath.Join(dir, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove stale chart: %w", err)
		}
	}
	if !slices.ContainsFunc(r.Files, func(f File) bool { return f.Name == LessonsFile }) {
		// verdicts of an earlier run, which this page does not show
		if err := os.Remove(filepath.Join(dir, LessonsFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove stale %s: %w", LessonsFile, err)
		}
	}
	if index != nil {
		return writeAtomic(filepath.Join(dir, index.Name), index.Data)
	}
	return nil
}

// writeAtomic writes data to path all at once (see package atomicfile).
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckDir tells, before anything is measured, whether a report can be
// written to dir: a folder that exists and is writable, or one that can be
// created. It creates nothing, so a run that measures nothing leaves no
// trace.
func CheckDir(dir string) error { return atomicfile.CheckDir(dir, "the report") }

// CheckProfileDir tells, before anything is measured, whether dir can take
// each point's trace and profiles: a folder that exists and is writable,
// or can be made. It creates nothing. Its errors name --profile, as the
// command lines that take the folder call it.
func CheckProfileDir(dir string) error {
	if dir == "" {
		return fmt.Errorf("--profile: want a folder for the profiles, such as prof")
	}
	// CheckDir would say "for the report" of a file in the way.
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return fmt.Errorf("--profile %s: is a file; want a folder for the profiles", dir)
	}
	if err := CheckDir(dir); err != nil {
		return fmt.Errorf("--profile %s: %w", dir, err)
	}
	return nil
}

// Write builds the report of points with opt, writes it into dir and
// prints its summary to w: the verdict, the table (compact, or every
// point in full) and where the page is (WriteSummary).
func Write(w io.Writer, dir string, points []results.Point, opt Options, full bool) error {
	r, err := BuildWith(points, opt)
	if err != nil {
		return err
	}
	if err := r.WriteDir(dir); err != nil {
		return err
	}
	return r.WriteSummary(w, dir, full)
}

// WriteBench writes the report of points (Go benchmarks', which have no
// verdict) into dir and prints the points to w in format f, then where
// the page is: below the table, or on log beside another format, which
// w's reader may parse.
func WriteBench(w, log io.Writer, dir string, points []results.Point, f results.Format) error {
	r, err := Build(points)
	if err != nil {
		return err
	}
	if err := r.WriteDir(dir); err != nil {
		return err
	}
	if err := results.Write(w, f, points); err != nil {
		return err
	}
	if f == results.Table {
		fmt.Fprintf(w, "\nreport: %s/%s\n", dir, Index)
	} else {
		fmt.Fprintf(log, "report: %s/%s\n", dir, Index)
	}
	return nil
}
