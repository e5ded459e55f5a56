package lab

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/report/chartspec"

	"github.com/spf13/pflag"
)

// Names lists the labs' names, in order, for messages.
func Names(labs []Lab) string {
	var names []string
	for _, l := range labs {
		names = append(names, l.Info().Name)
	}
	return strings.Join(names, ", ")
}

// Find returns the lab of labs named name.
func Find(labs []Lab, name string) (Lab, bool) {
	for _, l := range labs {
		if l.Info().Name == name {
			return l, true
		}
	}
	return nil, false
}

// Select reads a list of labs as the main job's --labs gives it: "all",
// or names of labs separated by commas, and checks each one's
// configuration as it is (its defaults, for labs/all's). Its error names
// the unknown lab, or the lab and the flag.
func Select(labs []Lab, list string) ([]Lab, error) {
	out := labs
	if list != "all" {
		out = nil
		for _, name := range strings.Split(list, ",") {
			l, ok := Find(labs, strings.TrimSpace(name))
			if !ok {
				return nil, fmt.Errorf("unknown lab %q; accepted: all, or some of %s", strings.TrimSpace(name), Names(labs))
			}
			out = append(out, l)
		}
	}
	for _, l := range out {
		if err := l.Bind(pflag.NewFlagSet(l.Info().Name, pflag.ContinueOnError))(); err != nil {
			return nil, fmt.Errorf("%s: %w", l.Info().Name, err)
		}
	}
	return out, nil
}

// Figures are the labs' charts by name, as report.Options takes them.
func Figures(labs []Lab) map[string]chartspec.Figure {
	out := map[string]chartspec.Figure{}
	for _, l := range labs {
		out[l.Info().Name] = l.Figure()
	}
	return out
}
