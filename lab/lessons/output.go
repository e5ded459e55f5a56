package lessons

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/results/lesson"
)

// Output is where a run's verdicts go: JSON Lines as each is reached (to
// stdout, or a file made at the first), or the table at the end.
type Output struct {
	stdout, stderr io.Writer
	json           bool             // JSON Lines, else the table
	path           string           // "" for stdout
	file           *os.File         // the JSON Lines file, once the first verdict is in
	table          *atomicfile.File // the table's file, written whole at the end
	words          Words
}

// Words writes the verdicts' words (text.LessonWords): the table, and a
// verdict's reason for its JSON line.
type Words interface {
	Table(io.Writer, []lesson.Result) error
	Reason(lesson.Result) string
	Tally([]lesson.Result) string
}

// NewOutput checks, before anything is measured, that the verdicts can be
// written to path ("" for stdout), in words; stderr gets the tally at the
// end.
func NewOutput(stdout, stderr io.Writer, path string, json bool, words Words) (*Output, error) {
	w := &Output{stdout: stdout, stderr: stderr, json: json, path: path, words: words}
	if path == "" {
		return w, nil
	}
	probe, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	if json {
		probe.Discard() // the file itself is created with the first verdict
	} else {
		w.table = probe
	}
	return w, nil
}

// Emit writes r as a JSON line as soon as it is reached; the table waits
// for Finish. The error of creating the file is os.Create's, unwrapped.
func (w *Output) Emit(r lesson.Result) error {
	if !w.json {
		return nil
	}
	var dst io.Writer = w.stdout
	if w.path != "" {
		if w.file == nil {
			f, err := os.Create(w.path)
			if err != nil {
				return err
			}
			w.file = f
		}
		dst = w.file
	}
	r.Reason = w.words.Reason(r)
	if err := lesson.WriteJSON(dst, r); err != nil {
		return fmt.Errorf("write the verdict of %s: %w", r.Claim, err)
	}
	return nil
}

// Finish writes the table of rs, closes the files and, for JSON or a file,
// tells stderr the tally and where the verdicts went.
func (w *Output) Finish(rs []lesson.Result) error {
	var err error
	switch {
	case w.json:
		if w.file != nil {
			err = w.file.Close()
		}
	case w.table == nil:
		err = w.words.Table(w.stdout, rs)
	case len(rs) == 0:
		w.table.Discard()
	default:
		if err = w.words.Table(w.table, rs); err == nil {
			err = w.table.Commit()
		} else {
			w.table.Discard()
		}
	}
	if err != nil {
		return fmt.Errorf("write the verdicts: %w", err)
	}
	if w.json || w.path != "" {
		fmt.Fprintln(w.stderr, w.words.Tally(rs))
	}
	if w.path != "" && len(rs) > 0 {
		fmt.Fprintf(w.stderr, "verdicts: %s\n", w.path)
	}
	return nil
}

// Teller is told what a run is about to measure and each verdict as it
// is reached (text.LessonsLog).
type Teller interface {
	Start(lesson.Start)
	Reached(lesson.Reached)
}

// RunTelling is Run, telling tell what it measures and each verdict as it
// comes.
func RunTelling(ctx context.Context, claims []Claim, opt Options, tell Teller, emit func(lesson.Result) error) ([]lesson.Result, error) {
	host, _ := os.Hostname()
	limit := opt.budget() + pick(opt.Level, 0, 5*time.Second, 30*time.Second) // and the last claim's verdict; a wait for quiet comes on top
	tell.Start(lesson.Start{Claims: len(claims), Level: opt.Level.String(), Host: host, AtMost: limit, QuietWait: opt.QuietWait, CPUs: runtime.NumCPU()})
	done, start := 0, time.Now()
	return Run(ctx, claims, opt, func(r lesson.Result) error {
		done++
		tell.Reached(lesson.Reached{Result: r, Done: done, Total: len(claims), Elapsed: time.Since(start), LimitLeft: limit - time.Since(start), Waits: opt.QuietWait > 0})
		return emit(r)
	})
}
