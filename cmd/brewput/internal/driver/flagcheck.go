package driver

import (
	"fmt"
	"regexp"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/results"
)

// formatVar adds --format table|json, table by default.
func formatVar(fs *pflag.FlagSet, to *string, usage string) {
	modelcli.ChoiceVar(fs, to, "format", "table", "output format: table or json"+usage, "table or json", "table", "json")
}

// tableVar adds --format compact|table: the table printed.
func tableVar(fs *pflag.FlagSet, to *string, compact string) {
	modelcli.ChoiceVar(fs, to, "format", "compact", "the table printed: compact or table\n(compact: "+compact+"; table: every point in full)", "compact or table", "compact", "table")
}

// measuringOnly refuses, beside --from, each of the flags named given:
// they apply when measuring.
func measuringOnly(fs *pflag.FlagSet, from string, names ...string) error {
	for _, name := range names {
		if fs.Changed(name) {
			return fmt.Errorf("--%s: applies when measuring; --from %s reads what was measured", name, from)
		}
	}
	return nil
}

// benchPattern is -bench's regular expression; nil for "".
func benchPattern(bench string) (*regexp.Regexp, error) {
	if bench == "" {
		return nil, nil
	}
	match, err := regexp.Compile(bench)
	if err != nil {
		return nil, fmt.Errorf("-bench %q: not a regular expression: %w", bench, err)
	}
	return match, nil
}

// measuredBenches are the Go benchmarks' points measured as their code
// is (no why's stretch), those whose names match matches where not nil.
func measuredBenches(points []results.Point, match *regexp.Regexp) []results.Point {
	var out []results.Point
	for _, p := range points {
		if p.Kind == results.KindBench && p.Source != results.SourceModel && p.Bench.AsIs() && (match == nil || match.MatchString(p.Mode)) {
			out = append(out, p)
		}
	}
	return out
}
