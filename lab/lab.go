// Package lab is what every lab shares: the Lab interface through which
// brewput lists, configures, runs and draws one; Of, a lab made of its
// package's parts; Sweep, the frame of a run over CPU counts; the
// measuring and point-making helpers (Turns, Stopwatch, Timing, Runs);
// and the checks a configuration is validated with. Each lab is a package
// under lab/, and lab/all is the one list of them: adding a lab is a
// package and a line there.
package lab

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/report/chartspec"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/results"
)

// Lab is one lab as brewput runs it: an experiment on real Go code,
// configured by flags, measured over CPU counts, drawn in its own chart.
type Lab interface {
	Info() Info
	// Bind adds the lab's flags to fs, at their defaults; the check it
	// returns, called once fs is parsed, completes and validates the
	// configuration, its error starting with the flag's name.
	Bind(fs *pflag.FlagSet) (check func() error)
	// Run measures the lab on each CPU count (GOMAXPROCS), telling
	// progress, which may be nil, a line at a time. Cancelled, or
	// failing, it returns what it measured with the error.
	Run(ctx context.Context, cpus []int, progress func(line string)) ([]results.Point, error)
	Figure() chartspec.Figure
}

// Info names a lab and says what it is.
type Info struct {
	Name    string // in brewput lab NAME and in its points
	Summary string // its line in brewput lab list
	Help    string // what it measures and what to look for: --help
	Example string // command lines that run it, for --help
}

// Validator is a lab's configuration. Validate returns the first problem
// on one line that starts with the field's flag name ("reps 0: want 1 to
// 100 runs a point"), which FlagError makes a usage error.
type Validator interface{ Validate() error }

// FlagError puts "--" before the flag name that a Validate error starts
// with; nil stays nil.
func FlagError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("--%w", err)
}
