// Package outfile is where a run's points go as they come (a results
// file's journal, stdout, a report folder's journal), and the hold that
// keeps a second brewput from writing the same output.
package outfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// Output is a results file a run writes as its points come. A JSON file
// is its own journal; another format's journal is beside it, removed once
// the file is written, or kept for --resume where the run was cut short.
type Output struct {
	Path   string
	Format results.Format
	plan   results.Plan
	j      *results.Journal
}

// Create checks that path can take a results file in format f: its
// extension says no other, and it can be written.
func Create(path string, f results.Format, plan results.Plan) (*Output, error) {
	if ext, ok := results.FormatForFile(path); ok && ext != f {
		want := f.String()
		if f == results.Table {
			want = "txt"
		}
		return nil, fmt.Errorf("its extension says %s, but the format is %s; name the file for its format (%s) or give --format %s",
			ext, f, strings.TrimSuffix(path, filepath.Ext(path))+"."+want, ext)
	}
	if path == "" {
		return nil, errors.New("want a file name")
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, errors.New("is a directory; want a file name")
	}
	if err := atomicfile.Probe(filepath.Dir(path)); err != nil {
		return nil, err
	}
	o := &Output{Path: path, Format: f, plan: plan}
	if f != results.JSON {
		o.plan.Out, o.plan.Format = path, f.String()
	}
	return o, nil
}

// InFolder is the journal of a report folder, made with the first point.
func InFolder(dir string, plan results.Plan) *Output {
	return &Output{Path: filepath.Join(dir, "results.json"), Format: results.JSON, plan: plan}
}

// Resume goes on with the journal a run cut short left at path.
func Resume(path string) (*Output, *results.File, error) {
	j, f, err := results.ResumeJournal(path)
	if err != nil {
		return nil, nil, err
	}
	o := &Output{Path: path, Format: results.JSON, plan: *f.Plan, j: j}
	if f.Plan.Out != "" {
		format, err := results.ParseFormat(f.Plan.Format)
		if err != nil {
			j.Close()
			return nil, nil, fmt.Errorf("%s: the plan's format: %w", path, err)
		}
		o.Path, o.Format = f.Plan.Out, format
	}
	return o, f, nil
}

// Journal is the file that holds the points as they come.
func (o *Output) Journal() string {
	if o.Format == results.JSON {
		return o.Path
	}
	return o.Path + results.JournalExt
}

// Add appends p to the journal, which the first point begins.
func (o *Output) Add(p results.Point) error {
	if o.j == nil {
		err := os.MkdirAll(filepath.Dir(o.Journal()), 0o755)
		if err == nil {
			o.j, err = results.CreateJournal(o.Journal(), o.plan)
		}
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", o.Journal(), atomicfile.WithoutPath(err))
		}
	}
	return o.j.Append(p)
}

// Close closes the journal as it is.
func (o *Output) Close() error {
	if o.j == nil {
		return nil
	}
	return o.j.Close()
}

// Finish writes the run's points to the file at once; a run cut short
// (not done) leaves its journal for --resume.
func (o *Output) Finish(points []results.Point, done bool) error {
	if len(points) == 0 {
		o.Discard()
		return nil
	}
	var buf bytes.Buffer
	var err error
	if o.Format == results.JSON && !done {
		err = results.WriteJournal(&buf, o.plan, points)
	} else {
		err = text.Write(&buf, o.Format, points)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", o.Path, err)
	}
	keep := o.Format != results.JSON && !done // the journal beside, for --resume
	if !keep {
		o.Close()
	}
	if err := atomicfile.WriteFile(o.Path, buf.Bytes()); err != nil {
		return fmt.Errorf("write %s: %w", o.Path, err)
	}
	switch {
	case keep:
		return o.Close()
	case o.Format != results.JSON && o.j != nil:
		return o.j.Remove()
	}
	return nil
}

// Discard removes the journal, if one was begun.
func (o *Output) Discard() {
	if o.j != nil {
		o.j.Remove()
	}
}
