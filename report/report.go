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
	"strings"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
	"github.com/brewput/brewput/results/chartspec"
	"github.com/brewput/brewput/results/lesson"
)

// File is one file of a report, held in memory until written.
type File struct {
	Name string // base name, e.g. "index.html"
	Data []byte
}

// Report is a rendered report: its files, and the points, analysis and
// labs' figures it shows.
type Report struct {
	Files    []File
	Points   []results.Point
	Analysis *analysis.Analysis
	Figures  map[string]chartspec.Figure
}

// Index is the name of the report's page.
const Index = "index.html"

// ownFile reports whether name is a file a report writes (or its temporary
// file); any other in a report's folder is a user's, kept on replacing it.
func ownFile(name string) bool {
	switch name {
	case Index, "results.json", "results.csv", analysis.File, LessonsFile:
		return true
	}
	if strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") {
		return true
	}
	ext := filepath.Ext(name)
	if ext != ".svg" && ext != ".png" {
		return false
	}
	base := strings.TrimSuffix(name, ext)
	return slices.Contains([]string{"throughput", "latency", "distribution", "comparison", "scalability", "limits"}, base) ||
		slices.ContainsFunc([]string{"lab-", benchChartPrefix, "schedule-"}, func(prefix string) bool { return strings.HasPrefix(base, prefix) })
}

// Options are what a report shows beside its points, computed elsewhere.
type Options struct {
	// Analysis is written beside the points as analysis.json; nil shows none.
	Analysis *analysis.Analysis
	// Figures are the labs' charts by lab name; chartspec.Default for others.
	Figures map[string]chartspec.Figure
	// Lessons are brewput lessons' verdicts, shown and written as lessons.json.
	Lessons []lesson.Result
	// Plan is a cut-short run's plan: the page says how far it got, and
	// results.json keeps it on its first line for --resume.
	Plan *results.Plan
	// Playground is the playground's index.html, relative or absolute, which
	// the answer's modes link to; "" for no links.
	Playground string
	// Modes declares the system's modes: their small multiples' groups and
	// colours, and which the playground knows.
	Modes results.Modes
}

// Build renders points and their analysis a (nil shows none) into a
// report: its page, the points, the analysis, each chart as SVG and PNG.
func Build(points []results.Point, a *analysis.Analysis) (*Report, error) {
	return BuildWith(points, Options{Analysis: a})
}

// BuildWith is Build with opt; with lessons, there may be no points.
func BuildWith(points []results.Point, opt Options) (*Report, error) {
	if len(points) == 0 && len(opt.Lessons) == 0 {
		return nil, errors.New("no points to report")
	}
	points = slices.Clone(points)
	if opt.Analysis == nil {
		opt.Analysis = &analysis.Analysis{}
	}
	a := opt.Analysis
	others, benches := results.SplitBench(points)
	shop, labs, byLab := results.SplitLabs(others)
	parts := pageParts{shop: shop}
	var charts, labCharts, benchCharts []chart
	var err error
	if len(shop) > 0 {
		if parts.charts, err = drawCharts(shop, a.Fits, opt.Modes); err != nil {
			return nil, fmt.Errorf("draw charts: %w", err)
		}
		// The answer speaks of the shop and studies; Go benchmarks have theirs.
		parts.verdict = a.Verdict
		parts.verdict.Benches = nil
		if parts.heatmap, err = heatmapChart(a.Grid); err != nil {
			return nil, fmt.Errorf("draw the map of limits: %w", err)
		}
		for i, p := range a.Schedules { // said as analysis.json keeps them
			a.Schedules[i].Why, a.Schedules[i].Note = text.PictureWhy(p), text.PictureNote(p)
		}
		var pics []chart
		if pics, parts.schedules, err = scheduleCharts(a.Schedules); err != nil {
			return nil, err
		}
		charts = slices.Concat([]chart{parts.heatmap}, parts.charts, pics)
	}
	if labCharts, parts.labs, err = drawLabs(labs, byLab, opt); err != nil {
		return nil, err
	}
	if benchCharts, parts.benches, err = drawBenchCharts(benches, a); err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := renderPage(&page, newPage(points, parts, opt)); err != nil {
		return nil, fmt.Errorf("render %s: %w", Index, err)
	}
	r := &Report{Points: points, Analysis: a, Figures: opt.Figures, Files: []File{{Name: Index, Data: page.Bytes()}}}
	if len(points) > 0 {
		var jsonl, csv bytes.Buffer
		write := results.WriteJSON
		if opt.Plan != nil {
			write = func(w io.Writer, points []results.Point) error { return results.WriteJournal(w, *opt.Plan, points) }
		}
		if err := write(&jsonl, points); err != nil {
			return nil, err
		}
		if err := results.WriteCSV(&csv, points); err != nil {
			return nil, err
		}
		r.Files = append(r.Files, File{Name: "results.json", Data: jsonl.Bytes()}, File{Name: "results.csv", Data: csv.Bytes()})
	}
	if a.Of != "" {
		// It is the analysis of the points as results.json holds them.
		if a.Of, err = analysis.OfPoints(points); err != nil {
			return nil, err
		}
		data, err := a.Marshal()
		if err != nil {
			return nil, err
		}
		r.Files = append(r.Files, File{Name: analysis.File, Data: append(data, '\n')})
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

// WriteDir assembles the report in atomicfile.StagingDir(dir), where a
// run's journal may be, and puts it in dir's place, keeping a user's files.
// A failure before that leaves dir as it was and the journal beside it:
// results.json, which replaces the journal, is written last.
func (r *Report) WriteDir(dir string) (err error) {
	staging := atomicfile.StagingDir(dir)
	_, journal := os.Stat(filepath.Join(staging, "results.json"))
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return fmt.Errorf("create report folder: %w", err)
	}
	defer func() {
		if err == nil {
			return
		}
		// A run's journal stays, for --resume; what this write added, or
		// a folder holding nothing else, goes.
		if journal != nil {
			os.RemoveAll(staging)
			return
		}
		for _, f := range r.Files {
			if f.Name != "results.json" {
				os.Remove(filepath.Join(staging, f.Name))
			}
		}
	}()
	// What a write cut short there left, and the report does not hold.
	entries, err := os.ReadDir(staging)
	if err != nil {
		return fmt.Errorf("create report folder: %w", err)
	}
	for _, e := range entries {
		if !slices.ContainsFunc(r.Files, func(f File) bool { return f.Name == e.Name() }) {
			if err := os.RemoveAll(filepath.Join(staging, e.Name())); err != nil {
				return fmt.Errorf("create report folder: %w", err)
			}
		}
	}
	files, last := slices.Clone(r.Files), []string{Index, "results.json"}
	slices.SortStableFunc(files, func(a, b File) int { return slices.Index(last, a.Name) - slices.Index(last, b.Name) })
	for _, f := range files {
		if err := writeAtomic(filepath.Join(staging, f.Name), f.Data); err != nil {
			return err
		}
	}
	return atomicfile.ReplaceDir(staging, dir, func(name string) bool { return !ownFile(name) })
}

// writeAtomic writes data to path all at once, its error naming path.
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckDir tells, creating nothing, whether a report can be written to dir.
func CheckDir(dir string) error { return atomicfile.CheckDir(dir, "the report") }

// Write builds the report of points, writes it into dir and prints its
// summary to w.
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

// WriteBench writes Go benchmarks' report into dir and prints them to w in
// format f, then where the page is: below a table, else on log, lest it
// break what w's reader parses.
func WriteBench(w, log io.Writer, dir string, points []results.Point, a *analysis.Analysis, f results.Format) error {
	r, err := Build(points, a)
	if err != nil {
		return err
	}
	if err := r.WriteDir(dir); err != nil {
		return err
	}
	if f == results.Table {
		if err := text.WriteVerdict(w, r.Analysis.Verdict); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if err := text.Write(w, f, points); err != nil {
		return err
	}
	if f != results.Table {
		WritePlace(log, dir+"/"+Index)
		return nil
	}
	if err := text.WriteLocks(w, points); err != nil {
		return err
	}
	fmt.Fprintln(w)
	WritePlace(w, dir+"/"+Index)
	return nil
}

// WritePlace writes "report: PATH" on w, the path on a line of its own
// where both do not fit, so that it is never cut.
func WritePlace(w io.Writer, path string) {
	fmt.Fprintln(w, format.Wrap("report: "+path, format.Width(w), ""))
}

// WriteSummary writes what a terminal shows once the report is in dir: the
// verdict, the compact table (with full, every point) and the page's path.
func (r *Report) WriteSummary(w io.Writer, dir string, full bool) error {
	labs := func(w io.Writer, labs []results.Point) error { return WriteLabs(w, labs, r.Analysis.Labs, r.Figures) }
	if !full {
		if err := text.WriteAnswer(w, r.Points, r.Analysis, labs); err != nil {
			return err
		}
	} else {
		if v := r.Analysis.Verdict; !v.Empty() {
			if err := text.WriteVerdict(w, v); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		if err := text.WriteTable(w, r.Points); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	WritePlace(w, filepath.Join(dir, Index))
	return nil
}

// Inputs is what a report is rendered from, as read from its files.
type Inputs struct {
	// Points are the results files' points, merged (results.Merge).
	Points []results.Point
	// Lessons are the lessons files' verdicts, in the files' order.
	Lessons []lesson.Result
	// Analysis is the one results file's saved analysis.File, if any; whether
	// it is the points' own is analysis.For's to say.
	Analysis *analysis.Analysis
	// Plan is the first cut-short journal's plan among the files, or nil.
	Plan *results.Plan
	// Notes say what the readers accepted or left out.
	Notes []error
}

// MaxPoints is the most points a report draws: about pointBytes each, so
// near a gigabyte.
const (
	MaxPoints  = 100_000
	pointBytes = 11 << 10
)

// ReadFiles reads a report's files: results files (see results.Open) and
// lessons files, told apart by content.
func ReadFiles(paths []string) (Inputs, error) { return readFiles(paths, MaxPoints) }

// readFiles is ReadFiles refusing more than limit points.
func readFiles(paths []string, limit int) (Inputs, error) {
	var files []*results.File
	var resultsPaths []string
	var in Inputs
	for _, path := range paths {
		isLessons, err := lesson.IsFile(path)
		if err != nil {
			return Inputs{}, err
		}
		if isLessons {
			rs, err := lesson.ReadFile(path)
			if err != nil {
				return Inputs{}, err
			}
			in.Lessons = append(in.Lessons, rs...)
			continue
		}
		f, err := results.Open(path)
		if err != nil {
			return Inputs{}, err
		}
		files = append(files, f)
		resultsPaths = append(resultsPaths, path)
		if in.Plan == nil {
			in.Plan = f.Plan
		}
	}
	all := results.Merge(files...)
	in.Points, in.Notes = all.Points, all.Notes
	if n := len(in.Points); n > limit {
		return Inputs{}, fmt.Errorf("%s: %s, more than the %s a report draws (about %s of memory each 10,000); brewput compare reads any number, or report a part of them", strings.Join(paths, ", "), format.Count(n, "point"), format.Count(limit, "point"), format.Bytes(pointBytes*10_000))
	}
	if len(resultsPaths) == 1 {
		saved := filepath.Join(filepath.Dir(resultsPaths[0]), analysis.File)
		if a, err := analysis.Read(saved); err == nil {
			in.Analysis = a
		} else if !errors.Is(err, fs.ErrNotExist) {
			in.Notes = append(in.Notes, fmt.Errorf("%w; it is made again", err))
		}
	}
	return in, nil
}
