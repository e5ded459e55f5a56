package main

import (
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/internal/outfile"
	"github.com/brewput/brewput/results"
)

// outputOf checks --format and --out before anything is measured
// (outfile.Sink.Open) and returns the sink of the points.
func outputOf(e *env, fs *pflag.FlagSet, format, out string, plan results.Plan) (*outfile.Sink, error) {
	return outputGiven(e, fs.Changed, format, out, plan)
}

// outputGiven is outputOf where given says which flags were given.
func outputGiven(e *env, given func(flag string) bool, format, out string, plan results.Plan) (*outfile.Sink, error) {
	s := e.sink(results.Table, nil)
	if err := s.Open(format, out, given, plan); err != nil {
		return nil, err
	}
	if s.Out != nil {
		return s, e.hold(s.Out.Path)
	}
	return s, nil
}

// sink is a Sink of points in format f to o (nil: stdout), each shop point
// with its causal profile (fifo) at the end.
func (e *env) sink(f results.Format, o *outfile.Output) *outfile.Sink {
	return &outfile.Sink{Stdout: e.stdout, Stderr: e.stderr, Format: f, Out: o,
		Profile: func(points []results.Point) error { return limits.Annotate(points, limits.Fifo()) }}
}
