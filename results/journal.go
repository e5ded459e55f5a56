package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Plan is what the run that writes a journal set out to do. A journal is a
// results file written as a run goes, its Plan then each point synced to
// the disk, so that whatever stops the run it holds every point finished.
type Plan struct {
	// Command began the journal: "brewput", "run", "model", "lab NAME".
	Command string `json:"command"`
	// Points is how many points the run planned; 0 where unknown.
	Points int `json:"points,omitempty"`
	// Study is the sweep being measured (sweep.Batch), for --resume.
	Study json.RawMessage `json:"study,omitempty"`
	// Labs, Lessons and Predict are what the main job runs after it.
	Labs    []string `json:"labs,omitempty"`
	Lessons bool     `json:"lessons,omitempty"`
	Predict bool     `json:"predict,omitempty"`
	// Out and Format are the results file the run writes at the end.
	Out    string `json:"out,omitempty"`
	Format string `json:"format,omitempty"`
}

// JournalExt ends the name of a non-JSON results file's journal.
const JournalExt = ".journal"

// Journal is a journal being written; see Plan.
type Journal struct {
	f    *os.File
	path string
}

// CreateJournal begins a journal at path with plan, replacing any file
// there, synced to the disk with the folder's entry.
func CreateJournal(path string, plan Plan) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	j := &Journal{f: f, path: path}
	err = j.write(schemaLine{planRecord, Schema, plan})
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// ResumeJournal opens the journal at path to append to, a last line cut
// short by a kill cut off, and returns what it holds.
func ResumeJournal(path string) (*Journal, *File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	rf, err := Read(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if rf.Plan == nil {
		return nil, nil, fmt.Errorf("%s: not a journal of a run cut short (it has no plan on its first line): nothing to resume", path)
	}
	for i, n := range rf.Notes {
		rf.Notes[i] = fmt.Errorf("%s: %w", path, n)
	}
	// What follows the last newline is a write a kill cut short.
	if err := os.Truncate(path, int64(bytes.LastIndexByte(data, '\n')+1)); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, err
	}
	return &Journal{f: f, path: path}, rf, nil
}

// Append adds p to the journal, on the disk when it returns; an
// impossible point (Point.Check) is refused.
func (j *Journal) Append(p Point) error {
	if err := p.Check(); err != nil {
		return err
	}
	return j.write(p)
}

// write writes v as one line with a single write, then syncs the file.
func (j *Journal) write(v any) error {
	line, err := json.Marshal(v)
	if err == nil {
		_, err = j.f.Write(append(line, '\n'))
	}
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	return nil
}

// Close closes the journal's file, leaving it as it is.
func (j *Journal) Close() error {
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

// Remove closes the journal and removes its file.
func (j *Journal) Remove() error {
	j.Close()
	if err := os.Remove(j.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// WriteJournal writes a journal whole.
func WriteJournal(w io.Writer, plan Plan, points []Point) error {
	if err := json.NewEncoder(w).Encode(schemaLine{planRecord, Schema, plan}); err != nil {
		return err
	}
	return AppendJSON(w, points)
}

// syncDir syncs a folder, so that a file created in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// Progress says how far a journal's run got: its points of those planned
// (0 where unknown), and the planned labs that left none.
func Progress(plan Plan, points []Point) (done, planned int, missingLabs []string) {
	counts := func(p Point) bool { return p.Kind == KindShop && p.IsModel() == (plan.Command == "model") }
	if strings.HasPrefix(plan.Command, "lab ") {
		counts = func(p Point) bool { return p.Kind == KindLab }
	}
	for _, p := range points {
		if counts(p) {
			done++
		}
	}
	for _, l := range plan.Labs {
		if !slices.ContainsFunc(points, func(p Point) bool { return p.LabName() == l }) {
			missingLabs = append(missingLabs, l)
		}
	}
	return done, plan.Points, missingLabs
}
