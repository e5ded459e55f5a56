package compare

import (
	"errors"
	"fmt"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/comparison"
)

// TwoFiles checks a compare command's arguments, OLD and NEW.
func TwoFiles(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("compare takes two results files, OLD and NEW; got %d", len(args))
	}
	return nil
}

// Files is a compare command's work: it checks opts and format, reads OLD
// and NEW with read, and compares them.
func Files(oldPath, newPath string, opts Options, format string, read func(path string) ([]results.Point, error)) (comparison.Comparison, error) {
	if err := opts.Check(); err != nil {
		return comparison.Comparison{}, fmt.Errorf("--alpha: %w", err)
	}
	if format != "table" && format != "json" {
		return comparison.Comparison{}, fmt.Errorf("--format: unknown format %q; accepted: table, json", format)
	}
	old, err := read(oldPath)
	if err != nil {
		return comparison.Comparison{}, err
	}
	new, err := read(newPath)
	if err != nil {
		return comparison.Comparison{}, err
	}
	c := Compare(old, new, opts)
	if len(c.Rows) == 0 {
		return c, nothingInCommon(c, oldPath, newPath)
	}
	return c, nil
}

// nothingInCommon is the error of two files that share no configuration.
func nothingInCommon(c comparison.Comparison, oldPath, newPath string) error {
	has := func(path string, keys []comparison.Key) error {
		if len(keys) == 0 {
			return errors.New(path + " has no points")
		}
		return fmt.Errorf("%s has %d (such as %s)", path, len(keys), keys[0])
	}
	match := "mode, CPUs, customers, load and steps, a model's prediction only with a prediction"
	if len(c.OnlyOld) > 0 && c.OnlyOld[0].Bench || len(c.OnlyNew) > 0 && c.OnlyNew[0].Bench {
		match = "benchmark name and CPU count"
	}
	return fmt.Errorf("nothing to compare: no configuration is in both files: %s, %s; points match by %s",
		has(oldPath, c.OnlyOld), has(newPath, c.OnlyNew), match)
}
