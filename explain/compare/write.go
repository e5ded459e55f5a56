package compare

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/brewput/brewput/internal/base/jsonout"
	"github.com/brewput/brewput/results"
)

// CheckFormat says whether Write writes format: table or json.
func CheckFormat(format string) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("unknown format %q; accepted: table, json", format)
	}
	return nil
}

// Write writes the comparison in format: WriteTable or WriteJSON.
func (c Comparison) Write(w io.Writer, format string) error {
	if err := CheckFormat(format); err != nil {
		return err
	}
	if format == "json" {
		return c.WriteJSON(w)
	}
	return c.WriteTable(w)
}

// TwoFiles checks a compare command's arguments, OLD and NEW.
func TwoFiles(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("compare takes two results files, OLD and NEW; got %d", len(args))
	}
	return nil
}

// Files is a compare command's work: it checks opts and format (errors
// naming --alpha and --format), reads OLD and NEW with read, and writes
// their comparison to w.
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
	c := Compare(old, new, opts)
	if len(c.Rows) == 0 {
		return c.nothingInCommon(oldPath, newPath)
	}
	return c.Write(w, format)
}

// nothingInCommon is the error of two files that share no configuration.
func (c Comparison) nothingInCommon(oldPath, newPath string) error {
	has := func(path string, keys []Key) string {
		if len(keys) == 0 {
			return path + " has no points"
		}
		return fmt.Sprintf("%s has %d (such as %s)", path, len(keys), keys[0])
	}
	match := "mode, CPUs, customers, load and steps, a model's prediction only with a prediction"
	if len(c.OnlyOld) > 0 && c.OnlyOld[0].Bench || len(c.OnlyNew) > 0 && c.OnlyNew[0].Bench {
		match = "benchmark name and CPU count"
	}
	return fmt.Errorf("nothing to compare: no configuration is in both files: %s, %s; points match by %s",
		has(oldPath, c.OnlyOld), has(newPath, c.OnlyNew), match)
}

// WriteJSON writes the comparison as one indented JSON object; numbers
// JSON cannot hold (infinite bounds, a change from 0) are null.
func (c Comparison) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "need >= 6 samples", not "need \u003e= 6"
	return enc.Encode(c)
}

// MarshalJSON writes a change from 0 and infinite bounds as null.
func (m Metric) MarshalJSON() ([]byte, error) {
	type plain Metric // without this method
	return jsonout.Marshal(struct {
		plain
		DeltaPct *float64 `json:"delta_pct"`
		GainLo   *float64 `json:"gain_lo"`
		GainHi   *float64 `json:"gain_hi"`
	}{plain(m), jsonout.Finite(m.DeltaPct), jsonout.Finite(m.GainLo), jsonout.Finite(m.GainHi)})
}
