package main

import (
	"github.com/brewput/brewput/lessons"
	"github.com/brewput/brewput/results"
)

// readReportFiles reads the files given to brewput report: results files
// (JSON Lines or CSV of points) and lessons files (brewput lessons --format
// json, or a report's lessons.json), told apart by their content.
func readReportFiles(paths []string) ([]results.Point, []lessons.Result, error) {
	var points []results.Point
	var verdicts []lessons.Result
	for _, path := range paths {
		isLessons, err := lessons.IsFile(path)
		if err != nil {
			return nil, nil, err
		}
		if isLessons {
			rs, err := lessons.ReadFile(path)
			if err != nil {
				return nil, nil, err
			}
			verdicts = append(verdicts, rs...)
			continue
		}
		ps, err := results.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		points = append(points, ps...)
	}
	return points, verdicts, nil
}
