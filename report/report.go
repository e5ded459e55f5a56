package report

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/brewput/brewput/advise"
	"github.com/brewput/brewput/analysis"
	"github.com/brewput/brewput/results"
)

// File is one file of a report, held in memory until written.
type File struct {
	Name string // base name, e.g. "index.html"
	Data []byte
}

// Report is a rendered report: its files, ready to write to a folder.
type Report struct {
	Files []File
}

// Index is the name of the report's page.
const Index = "index.html"

// chartNames are the charts a report may hold; files of these names that a
// report does not hold are removed from its folder, so that a chart left by
// an earlier run never sits beside a page that says there is none.
func chartNames() []string {
	names := []string{"throughput", "latency", "distribution", "scalability"}
	for _, l := range labNames() {
		names = append(names, "lab-"+l)
	}
	return names
}

// Options are what a report shows beside its points, computed elsewhere.
type Options struct {
	// Advice is the model's what-if advice, at most one per mode, shown in
	// the mode's section of the page.
	Advice []*advise.Advice
}

// Build renders points into a report: index.html, results.json (JSON
// Lines), results.csv and each chart as SVG and PNG. The points are kept in
// the order given; those without a bottleneck get one (see
// analysis.Annotate), in the report's copy.
func Build(points []results.Point) (*Report, error) { return BuildWith(points, Options{}) }

// BuildWith is Build with opt's advice in the modes' sections.
func BuildWith(points []results.Point, opt Options) (*Report, error) {
	if len(points) == 0 {
		return nil, errors.New("no points to report")
	}
	points = slices.Clone(points)
	analysis.Annotate(points)
	others, benches := splitBench(points)
	shop, labs, byLab := splitLabs(others)
	var charts []chart
	if len(shop) > 0 {
		var err error
		if charts, err = drawCharts(shop); err != nil {
			return nil, fmt.Errorf("draw charts: %w", err)
		}
	}
	labCharts, err := drawLabCharts(labs, byLab)
	if err != nil {
		return nil, err
	}
	benchCharts, benchViews, err := drawBenchCharts(benches)
	if err != nil {
		return nil, err
	}
	labCharts = append(labCharts, benchCharts...)
	pc := newPage(others, charts, labViews(labs, byLab, labCharts), opt)
	if len(benches) > 0 {
		pc.summary = summary(points)
		pc.sections[0] = sectionContent{"machine", "Machine", "machine", hosts(points)}
		pc.sections = append(pc.sections, sectionContent{"benchmarks", "Go benchmarks", "benchmarks", benchViews})
	}
	var page, jsonl, csv bytes.Buffer
	if err := renderPage(&page, pc); err != nil {
		return nil, fmt.Errorf("render %s: %w", Index, err)
	}
	if err := results.WriteJSON(&jsonl, points); err != nil {
		return nil, err
	}
	if err := results.WriteCSV(&csv, points); err != nil {
		return nil, err
	}
	r := &Report{Files: []File{
		{Name: Index, Data: page.Bytes()},
		{Name: "results.json", Data: jsonl.Bytes()},
		{Name: "results.csv", Data: csv.Bytes()},
	}}
	for _, c := range append(charts, labCharts...) {
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
	have := map[string]bool{}
	var index *File
	for i, f := range r.Files {
		have[f.Name] = true
		if f.Name == Index {
			index = &r.Files[i]
			continue
		}
		if err := writeAtomic(filepath.Join(dir, f.Name), f.Data); err != nil {
			return err
		}
	}
	stale := chartNames()
	// A Go benchmark's charts are named after it: any such chart the
	// report does not hold is an earlier run's.
	if old, err := filepath.Glob(filepath.Join(dir, benchChartPrefix+"*.svg")); err == nil {
		for _, f := range old {
			stale = append(stale, strings.TrimSuffix(filepath.Base(f), ".svg"))
		}
	}
	if old, err := filepath.Glob(filepath.Join(dir, benchChartPrefix+"*.png")); err == nil {
		for _, f := range old {
			stale = append(stale, strings.TrimSuffix(filepath.Base(f), ".png"))
		}
	}
	for _, name := range stale {
		for _, ext := range []string{".svg", ".png"} {
			if !have[name+ext] {
				err := os.Remove(filepath.Join(dir, name+ext))
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("remove stale chart: %w", err)
				}
			}
		}
	}
	if index != nil {
		return writeAtomic(filepath.Join(dir, index.Name), index.Data)
	}
	return nil
}

// writeAtomic writes data to a temporary file beside path, then renames it
// into place, with the mode os.WriteFile would give a new file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckDir tells, before anything is measured, whether a report can be
// written to dir: a folder that exists and is writable, or one that can be
// created. It creates nothing, so a run that measures nothing leaves no
// trace.
func CheckDir(dir string) error {
	probe := dir
	for {
		info, err := os.Stat(probe)
		if err == nil {
			if !info.IsDir() {
				if probe == dir {
					return fmt.Errorf("%s is a file; want a folder for the report", dir)
				}
				return fmt.Errorf("cannot create %s: %s is a file", dir, probe)
			}
			break
		}
		// A path through a file fails with "not a directory"; walk up to
		// the file to say so.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("cannot use %s: %w", dir, err)
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			break
		}
		probe = parent
	}
	tmp, err := os.CreateTemp(probe, ".brewput-probe-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the probe's name means nothing to the user
		}
		return fmt.Errorf("cannot write in %s: %w", probe, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
