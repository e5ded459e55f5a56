package text

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// CalibrationFor says whose costs c holds, how far to trust them
// (CalibrationQuality) and what was set aside for them: "for vm's runtime
// costs, measured 2026-11-22 10:00 UTC on a quiet machine (other processes
// used 0.02 CPUs)".
func CalibrationFor(c results.Calibration) string {
	s := "for costs given as flags"
	if c.Host != "none" {
		s = "for " + cmp.Or(c.Host, "an unnamed host") + "'s runtime costs"
		if !c.Date.IsZero() {
			s += ", measured " + c.Date.UTC().Format("2006-01-02 15:04 MST")
		}
		if q := CalibrationQuality(c); q != "" {
			s += " " + q
		}
	}
	if a := c.SetAside; a != nil {
		s += "; " + SetAsideLine(*a)
	}
	return s
}

// SetAsideLine says what was set aside and what is used instead, in one line.
func SetAsideLine(s results.SetAside) string {
	how := "measured on a busy machine"
	switch {
	case s.Unsaved:
		how = "measured for this run on a busy machine"
	case s.Forced:
		how = "kept with --force from a busy machine"
	}
	line := fmt.Sprintf("set aside: the calibration %s (other processes used %.2f CPUs)", how, s.Others)
	if s.Reference {
		return line + ", no quiet one being kept (brewput calibrate on a quiet machine keeps one)"
	}
	return line + ", for this machine's last quiet one"
}

// CalibrationCovers says what a band made with c spans, and what it
// leaves out; "" for costs given.
func CalibrationCovers(c results.Calibration) string {
	if c.Host == "none" {
		return ""
	}
	s := "its band spans the costs' 95 % intervals"
	if c.Calibrations > 1 {
		s += fmt.Sprintf(" over %d calibrations of this machine since %s", c.Calibrations, c.Since.UTC().Format("2006-01-02 15:04 MST"))
	}
	return s + ", not the mechanisms the model leaves out"
}

// CalibrationQuality says how far a measured calibration's costs can be
// trusted, by how busy the machine was; "" for costs given.
func CalibrationQuality(c results.Calibration) string {
	switch {
	case c.Host == "none" || !c.Busy() && c.Date.IsZero():
		return "" // given, or from a file that does not say
	case !c.Busy():
		return fmt.Sprintf("on a quiet machine (other processes used %.2f CPUs)", c.Others)
	}
	s := fmt.Sprintf("on a busy machine (other processes used %.2f CPUs): not to be trusted", c.Others)
	switch {
	case c.Unsaved:
		s += ", used for this run only and not saved"
	case c.Forced:
		s += ", kept with --force"
	}
	return s
}

// CalibrationCosts lists c's costs: "wake 84µs [80µs, 90µs], switch 145ns;
// given as flags: switch 145ns".
func CalibrationCosts(c results.Calibration) string {
	parts := make([]string, len(c.Costs))
	for i, k := range c.Costs {
		parts[i] = fmt.Sprintf("%s %v", k.Name, k.Median)
		if k.Lo != k.Hi {
			parts[i] += fmt.Sprintf(" [%v, %v]", k.Lo, k.Hi)
		}
	}
	s := strings.Join(parts, ", ")
	if len(c.Given) > 0 {
		given := make([]string, len(c.Given))
		for i, flag := range c.Given {
			k, _ := c.Cost(flag)
			given[i] = fmt.Sprintf("%s %v", flag, k.Median)
		}
		s += "; given as flags: " + strings.Join(given, ", ")
	}
	return s
}

// CalibrationLine describes c in one line, with what its band spans.
func CalibrationLine(c results.Calibration) string {
	s := CalibrationFor(c) + ": " + CalibrationCosts(c)
	if cv := CalibrationCovers(c); cv != "" {
		s += "; " + cv
	}
	return s
}

// CostsSaid says the three runtime costs that matter most for the shop's
// answers as a reader knows them: "this machine wakes a sleeping goroutine
// in about 21 µs, hands …". Whose names the machine, "" for this one.
func CostsSaid(whose string, wake, mutexHandoff, chanHandoff time.Duration) string {
	about := func(d time.Duration) string {
		return "about " + format.Sig(float64(d)/float64(time.Microsecond), 2) + " µs"
	}
	return fmt.Sprintf("%s wakes a sleeping goroutine in %s, hands a locked mutex on in %s and a value over a channel in %s",
		cmp.Or(whose, "this machine"), about(wake), about(mutexHandoff), about(chanHandoff))
}
