package main

import (
	"fmt"

	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/internal/outfile"
	"github.com/brewput/brewput/results"
	"github.com/spf13/pflag"
)

// outputOf checks --format and --out before anything is measured: the
// format's name, a file that can be written and whose extension does not
// say another format. A file given without a format takes the one its
// extension names, or JSON, which can be read back. The output's journal
// begins with its first point (see package outfile).
func outputOf(fs *pflag.FlagSet, format, out string, plan results.Plan) (*sink, error) {
	f, err := results.ParseFormat(format)
	if err != nil {
		return nil, fmt.Errorf("--format: %w", err)
	}
	s := &sink{format: f}
	if !fs.Changed("out") {
		return s, nil
	}
	if !fs.Changed("format") {
		f = results.JSON
		if guess, ok := results.FormatForFile(out); ok {
			f = guess
		}
	}
	o, err := outfile.Create(out, f, plan)
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	s.format, s.out = f, o
	return s, nil
}

// sink is where a command's points go as they come: the output file's
// journal, or, for JSON on stdout, stdout itself, a line a point; other
// formats on stdout are written whole at the end (a table is aligned over
// all its rows; CSV and the bench format could stream, but are written
// whole, as they always were).
type sink struct {
	e      *env
	format results.Format
	out    *outfile.Output // nil for stdout
	// annotate gives each shop point its causal profile (fifo) as it
	// comes, so that the journal holds what the final file will.
	annotate bool
	// resume is the command that finishes a run cut short from its
	// journal ("brewput run"), "" where there is none.
	resume string
	// streamed counts the points written to stdout as they came;
	// hold keeps them all to the end (a lab's profiled points get their
	// waits once the run is over).
	streamed int
	hold     bool
}

// add takes one point as soon as it exists.
func (s *sink) add(p *results.Point) error {
	if s.annotate {
		one := []results.Point{*p}
		if err := causal.Annotate(one, causal.Fifo()); err != nil {
			fmt.Fprintf(s.e.stderr, "causal profile of %s cpus=%d: %v\n", p.Mode, p.CPUs, err)
		}
		*p = one[0]
	}
	switch {
	case s.out != nil:
		return s.out.Add(*p)
	case s.format == results.JSON && !s.hold:
		s.streamed++
		return results.WriteJSON(s.e.stdout, []results.Point{*p})
	}
	return nil
}

// finish writes the results once the run is over (done: it did all it
// planned): the file in its format, or the other formats to stdout; with
// a file, the table to stdout and a line to stderr saying where the
// points went (and where the journal stays, for a run cut short).
// Every shop point without a causal profile gets one first (fifo).
func (s *sink) finish(points []results.Point, done bool) error {
	if err := causal.Annotate(points, causal.Fifo()); err != nil {
		fmt.Fprintf(s.e.stderr, "causal profiles: %v\n", err)
	}
	if s.out == nil {
		if s.format == results.JSON { // what went out as it came is out
			points = points[min(s.streamed, len(points)):]
		}
		if len(points) == 0 {
			return nil
		}
		return results.Write(s.e.stdout, s.format, points)
	}
	if err := s.out.Finish(points, done); err != nil {
		return err
	}
	if len(points) == 0 {
		return nil
	}
	fmt.Fprintf(s.e.stderr, "wrote %s to %s\n", plural(len(points), "point"), s.out.Path)
	switch {
	case done:
	case s.resume != "":
		fmt.Fprintf(s.e.stderr, "%s keeps the run's plan: %s --resume %s measures the rest\n", s.out.Journal(), s.resume, s.out.Journal())
	case s.out.Journal() != s.out.Path:
		fmt.Fprintf(s.e.stderr, "kept the journal %s\n", s.out.Journal())
	}
	return results.WriteTable(s.e.stdout, points)
}

// discard removes what the sink began, for a command that fails before
// its first point.
func (s *sink) discard() {
	if s.out != nil {
		s.out.Discard()
	}
}

// plural writes a count with its noun: "1 point", "12 points".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
