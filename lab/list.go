package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/chartspec"
)

// WriteList writes a line for each lab: its name and summary.
func WriteList(w io.Writer, labs []Lab) error {
	t := format.Table{Ragged: true}
	for _, l := range labs {
		t.Row(l.Info().Name, l.Info().Summary)
	}
	return t.Write(w)
}

func Names(labs []Lab) string {
	return strings.Join(collect.Mapped(labs, func(l Lab) string { return l.Info().Name }), ", ")
}

// Select reads the main job's --labs, "all" or names separated by
// commas, and checks each lab's defaults.
func Select(labs []Lab, list string) ([]Lab, error) {
	out := labs
	if list != "all" {
		out = nil
		for _, name := range strings.Split(list, ",") {
			name = strings.TrimSpace(name)
			i := slices.IndexFunc(labs, func(l Lab) bool { return l.Info().Name == name })
			if i < 0 {
				return nil, fmt.Errorf("unknown lab %q; accepted: all, or some of %s", name, Names(labs))
			}
			out = append(out, labs[i])
		}
	}
	for _, l := range out {
		if err := l.Bind(pflag.NewFlagSet(l.Info().Name, pflag.ContinueOnError))(); err != nil {
			return nil, fmt.Errorf("%s: %w", l.Info().Name, err)
		}
	}
	return out, nil
}

// Figures are the labs' charts by name.
func Figures(labs []Lab) map[string]chartspec.Figure {
	out := map[string]chartspec.Figure{}
	for _, l := range labs {
		out[l.Info().Name] = l.Figure()
	}
	return out
}

// DefaultCPUs is "1,N" for a machine of N CPUs.
func DefaultCPUs() string {
	if n := runtime.NumCPU(); n > 1 {
		return fmt.Sprintf("1,%d", n)
	}
	return "1"
}

// Ended is the command's error for how lab name's run ended: none, an
// exitcode.Interruption for a cancelled context, or an exitcode.Failure.
func Ended(err error, name string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return exitcode.Interruption{Err: fmt.Errorf("lab %s interrupted; kept what was measured", name)}
	}
	return exitcode.Failure{Err: fmt.Errorf("lab %s: %w", name, err)}
}
