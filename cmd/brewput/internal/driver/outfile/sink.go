package outfile

import (
	"fmt"
	"io"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// Sink is where a command's points go as they come: the output file's
// journal, or stdout, JSON a line a point and other formats at the end.
type Sink struct {
	Stdout, Stderr io.Writer // the points (the table, with a file); where the file went
	Format         results.Format
	Out            *Output // nil for stdout
	// Annotate, if not nil, gives points their causal profiles at Finish;
	// with AnnotateEach, each as it comes too, for the journal.
	Annotate     func([]results.Point) error
	AnnotateEach bool
	Resume       string                                          // the command that finishes a run cut short, if any
	Hold         bool                                            // keeps the points from stdout to the end
	View         func(w io.Writer, points []results.Point) error // stdout's table, if not nil
	streamed     int                                             // the points written to stdout as they came
}

// Add takes one point as soon as it exists.
func (s *Sink) Add(p *results.Point) error {
	if s.AnnotateEach && s.Annotate != nil {
		one := []results.Point{*p}
		if err := s.Annotate(one); err != nil {
			format.Lines(s.Stderr, "")(text.CausalProfileFailed(*p, err))
		}
		*p = one[0]
	}
	switch {
	case s.Out != nil:
		return s.Out.Add(*p)
	case s.Format == results.JSON && !s.Hold:
		s.streamed++
		if s.streamed == 1 {
			return results.WriteJSON(s.Stdout, []results.Point{*p})
		}
		return results.AppendJSON(s.Stdout, []results.Point{*p})
	}
	return nil
}

// Finish writes the results once the run is over (done: all it planned):
// the file, with the table to stdout, or what was not streamed to stdout.
func (s *Sink) Finish(points []results.Point, done bool) error {
	if s.Annotate != nil {
		if err := s.Annotate(points); err != nil {
			format.Lines(s.Stderr, "causal profiles: ")(err.Error())
		}
	}
	if s.Out == nil {
		if s.Format == results.JSON && s.streamed > 0 { // what went out as it came is out
			return results.AppendJSON(s.Stdout, points[min(s.streamed, len(points)):])
		}
		if len(points) == 0 {
			return nil
		}
		if s.Format == results.Table {
			return s.table(points)
		}
		return text.Write(s.Stdout, s.Format, points)
	}
	if err := s.Out.Finish(points, done); err != nil {
		return err
	}
	if len(points) == 0 {
		return nil
	}
	fmt.Fprintf(s.Stderr, "wrote %s to %s\n", format.Count(len(points), "point"), s.Out.Path)
	switch {
	case done:
	case s.Resume != "", s.Out.Journal() != s.Out.Path:
		fmt.Fprintln(s.Stderr, text.JournalKept(s.Out.Journal(), s.Resume))
	}
	return s.table(points)
}

// table writes points to stdout as View's table, or every point in full.
func (s *Sink) table(points []results.Point) error {
	if s.View != nil {
		return s.View(s.Stdout, points)
	}
	return text.WriteTable(s.Stdout, points)
}

// Open checks a command's --format and --out (given says which were) and
// points s at them; a file without a format takes its extension's, or JSON.
func (s *Sink) Open(format, out string, given func(flag string) bool, plan results.Plan) error {
	f, err := results.ParseFormat(format)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	s.Format = f
	if !given("out") {
		return nil
	}
	if !given("format") {
		f = results.JSON
		if guess, ok := results.FormatForFile(out); ok {
			f = guess
		}
	}
	o, err := Create(out, f, plan)
	if err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	}
	s.Format, s.Out = f, o
	return nil
}
