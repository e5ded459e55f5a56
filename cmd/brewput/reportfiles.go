package main

import (
	"fmt"

	"github.com/brewput/brewput/lessons"
	"github.com/brewput/brewput/results"
)

// readReportFiles reads the files given to brewput report: results files
// (JSON Lines or CSV of points) and lessons files (brewput lessons --format
// json, or a report's lessons.json), told apart by their content. It
// returns the plan of a journal a run cut short left, if one is among
// them, and tells the readers' notes on stderr.
func (e *env) readReportFiles(paths []string) ([]results.Point, []lessons.Result, *results.Plan, error) {
	var files []*results.File
	var verdicts []lessons.Result
	for _, path := range paths {
		isLessons, err := lessons.IsFile(path)
		if err != nil {
			return nil, nil, nil, err
		}
		if isLessons {
			rs, err := lessons.ReadFile(path)
			if err != nil {
				return nil, nil, nil, err
			}
			verdicts = append(verdicts, rs...)
			continue
		}
		f, err := results.Open(path)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
	}
	all := results.Merge(files...)
	e.tellNotes(all.Notes)
	var plan *results.Plan
	for _, f := range files {
		if f.Plan != nil && plan == nil {
			plan = f.Plan
		}
	}
	return all.Points, verdicts, plan, nil
}

// openResults reads results files (see results.OpenAll) and tells the
// readers' notes on stderr.
func (e *env) openResults(paths ...string) ([]results.Point, error) {
	f, err := results.OpenAll(paths...)
	if err != nil {
		return nil, err
	}
	e.tellNotes(f.Notes)
	return f.Points, nil
}

// tellNotes writes what the readers accepted or left out, a line each.
func (e *env) tellNotes(notes []string) {
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "note: %s\n", n)
	}
}
