package text

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// CutShort says how far the run of plan got: "The run was cut short: it
// stopped after 14 of 18 points."
func CutShort(plan results.Plan, points []results.Point) string {
	done, planned, missing := results.Progress(plan, points)
	s := fmt.Sprintf("The run was cut short: it stopped after %d of %d points", done, planned)
	if planned == 0 {
		s = fmt.Sprintf("The run was cut short: it stopped after %d point(s)", done)
	}
	if len(missing) > 0 {
		s += ", before the labs " + strings.Join(missing, ", ")
	}
	return s + "."
}

// PeakText describes the peak: "1160.2 lattes/s at 6.5 CPUs"; "none: "
// and NoPeak; "-" where not fitted.
func PeakText(f analysis.Fit) string {
	if !f.Fitted() {
		return "-"
	}
	if !f.HasPeak() {
		return "none: " + f.NoPeak
	}
	unit := strings.TrimSpace(" " + f.Unit)
	noun := "CPUs"
	if f.By == analysis.ByPar {
		noun = "customers"
	}
	s := fmt.Sprintf("%.1f %s at %.1f %s", f.PeakThroughput, unit, f.PeakN, noun)
	if f.Extrapolated {
		s += fmt.Sprintf(", extrapolated beyond the data (up to %d)", f.N[len(f.N)-1])
	}
	return s
}
