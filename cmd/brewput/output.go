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
func outputOf(e *env, fs *pflag.FlagSet, format, out string, plan results.Plan) (*outfile.Sink, error) {
	f, err := results.ParseFormat(format)
	if err != nil {
		return nil, fmt.Errorf("--format: %w", err)
	}
	s := e.sink(f, nil)
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
	s.Format, s.Out = f, o
	return s, nil
}

// sink is a Sink of points in format f to o (nil: stdout), each shop point
// with its causal profile (fifo) at the end.
func (e *env) sink(f results.Format, o *outfile.Output) *outfile.Sink {
	return &outfile.Sink{Stdout: e.stdout, Stderr: e.stderr, Format: f, Out: o,
		Profile: func(points []results.Point) error { return causal.Annotate(points, causal.Fifo()) }}
}
