package results

import (
	"fmt"
	"strings"
	"time"
)

// Band is the range a go-policy prediction spans when the Go runtime's
// costs it charges move across the confidence intervals of their
// calibration: the least and the most throughput, and the least and the
// most median latency in ms, over the simulations at the intervals' edges
// (and the point estimate itself).
type Band struct {
	Throughput [2]float64 `json:"throughput"`
	P50Ms      [2]float64 `json:"p50_ms"`
}

// Calibration names the calibration of the Go runtime's costs a
// prediction used: where and when it was measured, how busy the machine
// was, and the costs in one line; or, for costs inferred from measured
// points (brewput calibrate --from), the files they came from.
type Calibration struct {
	Host string    `json:"host"`
	Date time.Time `json:"date"`
	// Others is how many CPUs' worth other processes used while it
	// measured; Forced says it was saved although that was too many.
	Others float64 `json:"others_cpus"`
	Forced bool    `json:"forced,omitempty"`
	// Costs lists each cost with its confidence interval, e.g. "wake 84µs
	// [80µs, 90µs], switch 145ns [140ns, 150ns], …"; Given names the costs
	// given as flags instead.
	Costs string `json:"costs"`
	// InferredFrom names the files of measured points the costs were
	// inferred from, and Points how many configurations of theirs it used;
	// both empty for costs microbenchmarked on Host.
	InferredFrom []string `json:"inferred_from,omitempty"`
	Points       int      `json:"points,omitempty"`
}

// For says which machine's costs a prediction is for: "for vm's runtime
// costs, measured 2026-11-22 10:00 UTC", or "for the costs inferred from
// varycpu.csv (14 points)".
func (c Calibration) For() string {
	if len(c.InferredFrom) > 0 {
		return fmt.Sprintf("for the costs inferred from %s (%d points)", strings.Join(c.InferredFrom, ", "), c.Points)
	}
	host := c.Host
	switch host {
	case "":
		host = "an unnamed host"
	case "none":
		return "for costs given as flags"
	}
	s := "for " + host + "'s runtime costs"
	if !c.Date.IsZero() {
		s += ", measured " + c.Date.UTC().Format("2006-01-02 15:04 MST")
	}
	return s
}

// Line describes c in one line, for a table's footer and the page: which
// machine it is for, then the costs.
func (c Calibration) Line() string {
	s := c.For() + ": " + c.Costs
	switch {
	case len(c.InferredFrom) > 0:
	case c.Forced:
		s += fmt.Sprintf(" (measured while other processes used %.2f CPUs: forced, not to be trusted)", c.Others)
	case c.Host != "" && !c.Date.IsZero():
		s += fmt.Sprintf(" (other processes used %.2f CPUs)", c.Others)
	}
	return s
}
