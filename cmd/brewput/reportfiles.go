//go:build !js

package main

import (
	"fmt"

	"github.com/brewput/brewput/results"
)

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
