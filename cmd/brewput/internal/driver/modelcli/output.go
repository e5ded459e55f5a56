package modelcli

import (
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/results"
)

// Env is what the model's commands read and write besides their flags.
type Env struct {
	Stdout, Stderr io.Writer
	// Measure measures the go policy's costs where none are saved; nil
	// for the usual way.
	Measure calibrate.Measurer
	// Progress shows how far a study's simulation has got: nil where
	// stderr is read whole and must not depend on a run's speed.
	Progress func(st *shopsweep.Batch) (done func([]results.Point), finish func())
	// Hold claims the output --out names for the run, before any work
	// (nil where --out is refused).
	Hold func(path string) error
}

// Tell says line on stderr, wrapped.
func (e Env) Tell(line string) { format.Lines(e.Stderr, "")(line) }

// RegisterOutput adds --format and --out of points written as they come.
func RegisterOutput(fs *pflag.FlagSet, format, out *string, done string) {
	fs.StringVar(format, "format", "table", strings.Join(results.Formats(), "|")+"\n(the output's format; with --out, guessed from its extension)")
	fs.StringVar(out, "out", "", "file to write the results to\n(each point as soon as it is "+done+"; the table still goes to stdout)")
}

// Output checks --format and --out, holds the file, and returns the sink.
func (e Env) Output(given func(flag string) bool, format, out string, plan results.Plan) (*outfile.Sink, error) {
	s := e.Sink(results.Table, nil)
	if err := s.Open(format, out, given, plan); err != nil {
		return nil, err
	}
	if s.Out != nil {
		return s, e.Hold(s.Out.Path)
	}
	return s, nil
}

// CompactFormat is the --format of a command's answer (model, a lab's).
const CompactFormat = "compact"

// CompactOutput is Output where format may be compact, stdout's view.
func (e Env) CompactOutput(fs *pflag.FlagSet, format, out string, plan results.Plan, view func(io.Writer, []results.Point) error) (*outfile.Sink, error) {
	if format != CompactFormat {
		return e.Output(fs.Changed, format, out, plan)
	}
	s, err := e.Output(func(flag string) bool { return flag != "format" && fs.Changed(flag) }, results.Table.String(), out, plan)
	if s != nil {
		s.View = view
	}
	return s, err
}

// Sink is a Sink of points in format f to o (nil: stdout), with their
// causal profiles (fifo).
func (e Env) Sink(f results.Format, o *outfile.Output) *outfile.Sink {
	return &outfile.Sink{Stdout: e.Stdout, Stderr: e.Stderr, Format: f, Out: o,
		Annotate: func(points []results.Point) error { return limits.Annotate(points, limits.Fifo()) }}
}
