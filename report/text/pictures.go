package text

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/analysis"
)

// PictureWhy says why p is drawn: p.Why as read, else from its facts.
func PictureWhy(p analysis.Picture) string {
	e := p.Shown
	switch {
	case p.Profiled:
		return fmt.Sprintf("%s on %s, measured with --profile: the model's schedule beside the real one.", p.Mode, format.Count(p.CPUs, "CPU"))
	case e == nil:
		return p.Why
	case p.Does == analysis.WalledAlone:
		return fmt.Sprintf("%s on %s is limited by %s: %.0f %s, %s; no mode that scales makes enough more beside it to draw the two.",
			p.Mode, format.Count(p.CPUs, "CPU"), LimitName(e.Limit.Of), e.Throughput, e.Unit, as(e))
	}
	does := "keeps scaling"
	if p.Does == analysis.HitAWall {
		does = "has hit a wall"
	}
	return fmt.Sprintf("%s on %s %s: %.0f %s, limited by %s, %s.", p.Mode, format.Count(p.CPUs, "CPU"), does, e.Throughput, e.Unit, LimitName(e.Limit.Of), as(e))
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
