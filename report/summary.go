package report

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// WriteSummary writes what a terminal shows once the report is in dir: the
// verdict, the compact table (or with full every point) and the page.
func (r *Report) WriteSummary(w io.Writer, dir string, full bool) error {
	if v := r.Analysis.Verdict; !v.Empty() {
		if err := text.WriteVerdict(w, v); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	write := results.WriteTable
	if !full {
		write = func(w io.Writer, points []results.Point) error {
			return text.WriteCompact(w, points, r.Analysis, func(w io.Writer, labs []results.Point) error {
				return WriteLabs(w, labs, r.Analysis.Labs, r.Figures)
			})
		}
	}
	if err := write(w, r.Points); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nreport: %s\n", filepath.Join(dir, Index))
	return err
}
