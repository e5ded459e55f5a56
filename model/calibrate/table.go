package calibrate

import (
	"strings"

	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
)

// Table is what brewput calibrate shows of c (report/text's
// WriteCalibrationTable says it).
func (c Calibration) Table() results.CalibrationTable {
	t := results.CalibrationTable{Repeats: max(c.Repeats, 1), Samples: c.Samples, Host: c.Host.Name, CPUModel: c.Host.CPUModel,
		GoVer: c.Host.GoVersion, Date: c.Date, Others: c.Others, Forced: c.Forced, Note: c.Note,
		ForReference: c.disturbed() && len(c.Earlier) == 0, Reference: ReferenceHost, Earlier: len(c.Earlier)}
	for _, r := range c.Rows() {
		row := results.CostRow{Name: r.Name, Median: r.Median, Lo: r.Lo, Hi: r.Hi}
		// A distribution is named as sim.Costs' JSON names its cost.
		if d := c.Dists[strings.ReplaceAll(r.Name, " ", "_")+"_ns"]; len(d) == 101 {
			row.P5, row.P95, row.Spread = d[5], d[95], true
		}
		t.Costs = append(t.Costs, row)
	}
	if cv := c.Curves; cv != nil {
		t.CurveConfigs, t.CurveCPUs = len(cv.Points)/len(curves.Counts(cv.MaxCPUs())), cv.MaxCPUs()
	}
	if len(c.Earlier) > 0 {
		c.span(&t)
	}
	return t
}

// span gives t each cost's spread over the earlier calibrations c
// carries, and which they are.
func (c Calibration) span(t *results.CalibrationTable) {
	if c.disturbed() {
		c = c.Hedged() // the quiet ones alone
	}
	t.SetAside = c.SetAside != nil
	lo, hi := c.Span()
	for _, name := range costFlags() {
		least, most := *Field(&c.Costs, name), *Field(&c.Costs, name)
		for _, e := range c.Earlier {
			least, most = min(least, *Field(&e.Costs, name)), max(most, *Field(&e.Costs, name))
		}
		t.Spans = append(t.Spans, results.CostSpan{Name: strings.ReplaceAll(name, "-", " "), Least: least, Most: most, Lo: *Field(&lo, name), Hi: *Field(&hi, name)})
	}
	if c.SetAside != nil {
		t.Dates = append(t.Dates, results.Dated{Date: c.Date, Others: c.Others})
	}
	for _, e := range c.Earlier {
		t.Dates = append(t.Dates, results.Dated{Date: e.Date, Others: e.Others})
	}
}
