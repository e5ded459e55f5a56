package compare

import (
	"fmt"
	"io"
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
