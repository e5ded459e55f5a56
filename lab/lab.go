// Package lab is what every lab shares: the Lab interface through which
// brewput lists, configures, runs and draws one; Sweep, the frame of a
// lab's run over CPU counts; Point, a measured point of a lab; the checks
// a lab's configuration is validated with (Within, NotEmpty, Choices,
// …); and chartspec.Figure, a lab's chart as plain data, which package report
// draws. Each lab is a package under lab/, and lab/all is the one list of
// them: adding a lab is a package and a line there.
package lab

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/report/chartspec"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/results"
)

// Lab is one lab as brewput runs it: an experiment on real Go code, its
// configuration bound to flags, measured over CPU counts into points of
// results, and drawn in a chart of its own.
type Lab interface {
	// Info is the lab's name and texts.
	Info() Info
	// Bind adds the lab's own flags to fs, bound to its configuration
	// and at its defaults. The check it returns, called once fs is
	// parsed, completes the configuration from the flags and validates
	// it; its error starts with the flag's name (see FlagError).
	Bind(fs *pflag.FlagSet) (check func() error)
	// Run measures the lab as configured on each CPU count of cpus
	// (GOMAXPROCS), telling progress, which may be nil, a line at a time.
	// Cancelled, or failing, it returns what it measured with the error.
	Run(ctx context.Context, cpus []int, progress func(line string)) ([]results.Point, error)
	// Figure is the lab's chart.
	Figure() chartspec.Figure
}

// Info names a lab and says what it is.
type Info struct {
	// Name is the lab's name in brewput lab NAME and in its points' lab.
	Name string
	// Summary is one line, for brewput lab list.
	Summary string
	// Help says what the lab measures, what it shows and what to look
	// for: brewput lab NAME --help.
	Help string
	// Example is command lines that run it, for --help.
	Example string
}

// FlagError turns the error of a lab's Config.Validate, which starts with
// the configuration's field as its flag is named ("add-size 0: …"), into
// a usage error that names the flag ("--add-size 0: …"); nil stays nil.
func FlagError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("--%w", err)
}
