package outfile

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/brewput/brewput/results"
)

// Folder is a report folder's journal, its results.json: begun with the
// first point (a run that measures nothing leaves no folder), each point
// appended as soon as it exists; the report replaces it at the end.
type Folder struct {
	// Dir is the report folder, made with the first point.
	Dir string
	// Plan is the journal's first line, what the run set out to do.
	Plan results.Plan
	j    *results.Journal
}

// ResumeFolder opens the journal at path, the results.json of a folder
// that a run cut short left, to go on appending to it.
func ResumeFolder(path string, plan results.Plan) (*Folder, error) {
	j, _, err := results.ResumeJournal(path)
	if err != nil {
		return nil, err
	}
	return &Folder{Dir: filepath.Dir(path), Plan: plan, j: j}, nil
}

// Add appends p to the journal, making the folder and beginning the
// journal first if p is the first point.
func (f *Folder) Add(p results.Point) error {
	if f.j == nil {
		if err := os.MkdirAll(f.Dir, 0o755); err != nil {
			return fmt.Errorf("create report folder: %w", err)
		}
		j, err := results.CreateJournal(filepath.Join(f.Dir, "results.json"), f.Plan)
		if err != nil {
			return err
		}
		f.j = j
	}
	return f.j.Append(p)
}

// Close closes the journal, if it was begun; closing again does nothing.
func (f *Folder) Close() {
	if f.j != nil {
		f.j.Close()
		f.j = nil
	}
}
