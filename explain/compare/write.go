package compare

import (
	"fmt"
	"io"

	"github.com/brewput/brewput/results"
)

// CheckFormat says whether Write writes format: table or json.
func CheckFormat(format string) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("unknown format %q; accepted: table, json", format)
	}
	return nil
}

// Write writes the comparison in format (see CheckFormat): the table for
// people (WriteTable) or JSON for programs (WriteJSON).
func (c Comparison) Write(w io.Writer, format string) error {
	if err := CheckFormat(format); err != nil {
		return err
	}
	if format == "json" {
		return c.WriteJSON(w)
	}
	return c.WriteTable(w)
}

// TwoFiles checks a compare command's arguments: the two results files,
// OLD and NEW.
func TwoFiles(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("compare takes two results files, OLD and NEW; got %d", len(args))
	}
	return nil
}

// Files is a compare command's work: it checks opts and format (errors
// naming --alpha and --format), reads the files OLD and NEW with read,
// compares them and writes the comparison to w in format.
func Files(w io.Writer, oldPath, newPath string, opts Options, format string, read func(path string) ([]results.Point, error)) error {
	if err := opts.Check(); err != nil {
		return fmt.Errorf("--alpha: %w", err)
	}
	if err := CheckFormat(format); err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	old, err := read(oldPath)
	if err != nil {
		return err
	}
	new, err := read(newPath)
	if err != nil {
		return err
	}
	return Compare(old, new, opts).Write(w, format)
}
