package report

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
	"github.com/brewput/brewput/results/lesson"
)

// Inputs is what a report is rendered from, as read from its files.
type Inputs struct {
	// Points are the results files' points, merged (see results.Merge).
	Points []results.Point
	// Lessons are the lessons files' verdicts, in the files' order.
	Lessons []lesson.Result
	// Analysis is the analysis saved beside the one results file read
	// (analysis.File in its folder), where there is one; whether it is
	// the points' own is analysis.For's to say.
	Analysis *analysis.Analysis
	// Plan is the plan of a journal a run cut short left, the first such
	// among the files; nil where there is none.
	Plan *results.Plan
	// Notes say what the readers accepted or left out, a line each.
	Notes []string
}

// ReadFiles reads the files of a report: results files (JSON Lines, CSV or
// Go benchmark output, see results.Open) and lessons files (brewput lessons
// --format json, or a report's lessons.json), told apart by their content.
func ReadFiles(paths []string) (Inputs, error) {
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
	if len(resultsPaths) == 1 {
		saved := filepath.Join(filepath.Dir(resultsPaths[0]), analysis.File)
		if a, err := analysis.Read(saved); err == nil {
			in.Analysis = a
		} else if !errors.Is(err, fs.ErrNotExist) {
			in.Notes = append(in.Notes, fmt.Sprintf("%v; it is made again", err))
		}
	}
	return in, nil
}
