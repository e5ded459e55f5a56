package text

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// CalibrationFor says whose costs c holds, how far to trust them and what
// was set aside for them: "for vm's runtime costs, measured …".
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

// CalibrationTold says what measuring the runtime's costs for a
// prediction tells as it goes.
func CalibrationTold(ev results.CalibrationEvent) string {
	switch ev.Kind {
	case results.Calibrating:
		return "measuring the Go runtime's costs (kept if the machine is quiet)…"
	case results.StayedBusy:
		return fmt.Sprintf("the machine stayed busy %v (other processes used %.2f CPUs): measuring anyway", ev.Waited.Round(time.Second), ev.Others)
	case results.NotKept:
		return fmt.Sprintf("not kept (other processes used %.2f CPUs): using %s's costs.", ev.Others, ev.Host)
	case results.Saved:
		return "saved the calibration to " + ev.Path
	}
	return ev.Kind
}

// CalibrationTeller tells calibration events as lines to tell.
func CalibrationTeller(tell func(line string)) func(results.CalibrationEvent) {
	return func(ev results.CalibrationEvent) { tell(CalibrationTold(ev)) }
}

// WriteCalibrationTable writes a calibration's costs as a small table,
// then where and when they were measured, and the earlier ones it carries.
func WriteCalibrationTable(out io.Writer, c results.CalibrationTable) {
	t := format.Table{Align: []format.Align{format.Right}, Indent: true}
	t.Row("cost", "median", "95% interval", "p5", "p95")
	for _, r := range c.Costs {
		show := func(d time.Duration) string { return costText(r.Name, d) }
		p5, p95 := "-", "-"
		if r.Spread {
			p5, p95 = show(r.P5), show(r.P95)
		}
		t.Row(r.Name, show(r.Median), show(r.Lo)+" – "+show(r.Hi), p5, p95)
	}
	t.Write(out)
	when := "an unknown date"
	if !c.Date.IsZero() {
		when = c.Date.UTC().Format("2006-01-02 15:04 MST")
	}
	line := fmt.Sprintf("%d repeats of %d samples each on %s (%s, %s), %s; other processes used %.2f CPUs meanwhile",
		c.Repeats, c.Samples, c.Host, c.CPUModel, c.GoVer, when, c.Others)
	if c.Forced {
		line += "; saved with --force"
	}
	if c.ForReference {
		line += "; a prediction sets it aside for " + c.Reference + "'s costs, no quiet calibration of this machine being kept"
	}
	fmt.Fprintln(out, format.Wrap(line, format.Width(out), "  "))
	if c.Note != "" {
		fmt.Fprintln(out, format.Wrap("note: "+c.Note, format.Width(out), "  "))
	}
	if c.CurveCPUs > 0 {
		fmt.Fprintf(out, "contention curves: %d configurations on 1–%d CPUs\n", c.CurveConfigs, c.CurveCPUs)
	}
	if c.Earlier > 0 {
		writeCalibrationSpan(out, c)
	}
}

// writeCalibrationSpan writes each cost's spread over the earlier
// calibrations, and which they are.
func writeCalibrationSpan(out io.Writer, c results.CalibrationTable) {
	head := fmt.Sprintf("with the %d earlier calibrations of this machine it carries, which a band spans too:", c.Earlier)
	if c.SetAside {
		head = fmt.Sprintf("with the %d earlier quiet calibrations of this machine it carries; a prediction sets this one aside for the newest, its band spanning them all:", c.Earlier)
	}
	fmt.Fprintf(out, "\n%s\n", format.Wrap(head, format.Width(out), ""))
	t := format.Table{Align: []format.Align{format.Right}, Indent: true}
	t.Row("cost", "medians", "band spans")
	for _, s := range c.Spans {
		show := func(d time.Duration) string { return costText(s.Name, d) }
		t.Row(s.Name, show(s.Least)+" – "+show(s.Most), show(s.Lo)+" – "+show(s.Hi))
	}
	t.Write(out)
	dates := collect.Mapped(c.Dates, func(d results.Dated) string {
		return fmt.Sprintf("%s (%.2f CPUs)", d.Date.UTC().Format("2006-01-02 15:04"), d.Others)
	})
	fmt.Fprintln(out, format.Wrap("earlier, newest first (UTC; other processes' use): "+strings.Join(dates, ", "), format.Width(out), "  "))
}

// costText writes cost name's d: a wake-up's 0 is one within the runnext
// grace.
func costText(name string, d time.Duration) string {
	if d <= 0 && (name == "wake" || name == "spin wake") {
		return "≈0 (in the grace)"
	}
	return d.String()
}
