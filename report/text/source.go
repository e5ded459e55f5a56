package text

import (
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/results/analysis"
)

// as says where an entry's figures come from: "as measured on vm", "as the
// model (go) predicts".
func as(e *analysis.Entry) string {
	if e.Model {
		return "as the " + e.Source + " predicts"
	}
	return "as " + MeasuredOn(e.Host)
}

// MeasuredOn says where figures were measured: "measured on host vm", or
// "measured" where the host is not named.
func MeasuredOn(host string) string {
	return MeasuredOnHosts([]string{host})
}

// MeasuredOnHosts is MeasuredOn for points from several hosts: "measured
// on hosts vm, box".
func MeasuredOnHosts(hosts []string) string {
	named := slices.DeleteFunc(slices.Clone(hosts), func(h string) bool { return h == "" || h == "measured" })
	switch len(named) {
	case 0:
		return "measured"
	case 1:
		return "measured on host " + named[0]
	}
	return "measured on hosts " + strings.Join(named, ", ")
}

// countSource says where a count's figures come from: "measured on vm",
// "predicted by the model (go)", "measured on vm (3 of 5 modes; …)".
func countSource(c analysis.Count) string {
	if c.Model {
		return "predicted by the " + c.Predictor
	}
	s := MeasuredOn(c.Host)
	if c.Mixed {
		s += fmt.Sprintf(" (%d of %d modes; the others predicted by the model)", c.Measured, len(c.Best)+len(c.Rest))
	}
	return s
}

// leaderName names a mode that makes the most with what sets it apart:
// "multi-2 (predicted, an open loop of 900 orders/s)".
func leaderName(b analysis.Below) string {
	var notes []string
	if b.Model {
		notes = append(notes, "predicted")
	}
	if b.Rate > 0 {
		notes = append(notes, fmt.Sprintf("an open loop of %g orders/s", b.Rate))
	}
	if len(notes) == 0 {
		return b.Mode
	}
	return b.Mode + " (" + strings.Join(notes, ", ") + ")"
}

// LimitSource says where a mode's limit at its most CPUs was found:
// "measured on vm", "model (go)".
func LimitSource(m analysis.ModeLimit) string {
	if m.Model {
		return m.Source
	}
	return MeasuredOn(m.Host)
}
