package text

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/analysis"
)

// PictureWhy says why p is drawn.
func PictureWhy(p analysis.Picture) string {
	if !p.Profiled {
		return p.Why
	}
	return fmt.Sprintf("%s on %s, measured with --profile: the model's schedule beside the real one.", p.Mode, format.Count(p.CPUs, "CPU"))
}

// PictureNote says why p's model or trace is not drawn, or p's own Note.
func PictureNote(p analysis.Picture) string {
	var notes []string
	if p.ModelErr != "" {
		notes = append(notes, "the model cannot draw it: "+p.ModelErr)
	}
	if p.TraceGone != "" {
		notes = append(notes, fmt.Sprintf("the trace of the measured point, %s, is not at hand", p.TraceGone))
	}
	if p.TraceErr != "" {
		notes = append(notes, "its trace cannot be drawn: "+p.TraceErr)
	}
	if len(notes) == 0 {
		return p.Note
	}
	return format.Capital(strings.Join(notes, "; ")) + "."
}
