package driver

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/mainjob"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/results"
)

// finish writes a measurement's points and says how it ended.
func finish(out *outfile.Sink, points []results.Point, runErr error, total int) error {
	if err := out.Finish(points, runErr == nil); err != nil {
		return failure{Err: err}
	}
	return exitcode.Measured(runErr, len(points), total)
}

// registerOutput adds --format and --out of points written as they come.
func registerOutput(fs *pflag.FlagSet, format, out *string, done string) {
	fs.StringVar(format, "format", "table", strings.Join(results.Formats(), "|")+"\n(the output's format; with --out, guessed from its extension)")
	fs.StringVar(out, "out", "", "file to write the results to\n(each point as soon as it is "+done+"; the table still goes to stdout)")
}

// output checks --format and --out, holds the file, and returns the sink.
func (e *env) output(given func(flag string) bool, format, out string, plan results.Plan) (*outfile.Sink, error) {
	s := e.sink(results.Table, nil)
	if err := s.Open(format, out, given, plan); err != nil {
		return nil, err
	}
	if s.Out != nil {
		return s, e.hold(s.Out.Path)
	}
	return s, nil
}

// compactFormat is the --format of a command's answer (model, a lab's).
const compactFormat = "compact"

// compactOutput is output where format may be compact, stdout's view.
func (e *env) compactOutput(fs *pflag.FlagSet, format, out string, plan results.Plan, view func(io.Writer, []results.Point) error) (*outfile.Sink, error) {
	if format != compactFormat {
		return e.output(fs.Changed, format, out, plan)
	}
	s, err := e.output(func(flag string) bool { return flag != "format" && fs.Changed(flag) }, results.Table.String(), out, plan)
	if s != nil {
		s.View = view
	}
	return s, err
}

// sink is a Sink of points in format f to o (nil: stdout), with their
// causal profiles (fifo).
func (e *env) sink(f results.Format, o *outfile.Output) *outfile.Sink {
	return &outfile.Sink{Stdout: e.stdout, Stderr: e.stderr, Format: f, Out: o,
		Annotate: func(points []results.Point) error { return mainjob.Annotate(points, limits.Fifo()) }}
}

// resultsOut checks --out FILE of a command that writes what it measured
// as a results file when it ends (JSON Lines), and holds it; nil for "".
func (e *env) resultsOut(path, command string) (*outfile.Output, error) {
	if path == "" {
		return nil, nil
	}
	o, err := outfile.Create(path, results.JSON, results.Plan{Command: command})
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", path, err)
	}
	return o, e.hold(path)
}
