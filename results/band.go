package results

import (
	"fmt"
	"strings"
	"time"
)

// Band is the range of throughput and median latency (ms) a go-policy
// prediction spans with the runtime's costs at their intervals' edges.
type Band struct {
	Throughput [2]float64 `json:"throughput"`
	P50Ms      [2]float64 `json:"p50_ms"`
}

// Calibration is the Go runtime's costs a prediction used: where and
// when they were measured, or the files they were inferred from.
type Calibration struct {
	Host string    `json:"host"`
	Date time.Time `json:"date"`
	// Others is the CPUs other processes used while it measured; Forced
	// says it was saved although that was too many, Unsaved that it was
	// measured for one run and not saved, being so (see Busy).
	Others  float64 `json:"others_cpus"`
	Forced  bool    `json:"forced,omitempty"`
	Unsaved bool    `json:"unsaved,omitempty"`
	// Costs are in brewput calibrate's order; Given names the flags that
	// replaced measured ones.
	Costs []Cost   `json:"costs"`
	Given []string `json:"given,omitempty"`
	// InferredFrom names the files the costs were inferred from, Points
	// how many of their configurations.
	InferredFrom []string `json:"inferred_from,omitempty"`
	Points       int      `json:"points,omitempty"`
}

// Cost is one of the go policy's costs: its median and confidence
// interval (Lo = Hi = Median for one given).
type Cost struct {
	// Name is as brewput calibrate prints it, "spin wake".
	Name   string        `json:"name"`
	Median time.Duration `json:"median_ns"`
	Lo     time.Duration `json:"lo_ns"`
	Hi     time.Duration `json:"hi_ns"`
}

// Flag is brewput model's flag for the cost, "spin-wake".
func (c Cost) Flag() string { return strings.ReplaceAll(c.Name, " ", "-") }

// Cost is the cost whose flag is flag, and whether c has it.
func (c Calibration) Cost(flag string) (Cost, bool) {
	for _, k := range c.Costs {
		if k.Flag() == flag {
			return k, true
		}
	}
	return Cost{}, false
}

// CalibrationQuietBelow is the most CPUs' worth of time other processes
// may use while a calibration measures for its costs to be trusted: above
// a few tenths the wake-up reads high, the woken thread waiting for a core.
const CalibrationQuietBelow = 0.2

// Busy reports whether c was measured while other processes used
// CalibrationQuietBelow CPUs or more (or was marked so), which makes its
// costs not to be trusted.
func (c Calibration) Busy() bool {
	if len(c.InferredFrom) > 0 || c.Host == "none" {
		return false
	}
	return c.Forced || c.Unsaved || c.Others >= CalibrationQuietBelow
}

// For says whose costs they are and how far to trust them: "for vm's
// runtime costs, measured 2026-11-22 10:00 UTC on a quiet machine (other
// processes used 0.02 CPUs)", or, measured on a busy one, that they are not
// to be trusted (Busy).
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
	if q := c.Quality(); q != "" {
		s += " " + q
	}
	return s
}

// Quality says how far a measured calibration's costs can be trusted, by
// how busy the machine was while they were measured; "" for costs given or
// inferred.
func (c Calibration) Quality() string {
	switch {
	case len(c.InferredFrom) > 0 || c.Host == "none" || !c.Busy() && c.Date.IsZero():
		return "" // given, inferred, or from a file that does not say
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

// CostsLine lists the costs: "wake 84µs [80µs, 90µs], switch 145ns;
// given as flags: switch 145ns".
func (c Calibration) CostsLine() string {
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

// Line describes c in one line, for a table's footer and the page.
func (c Calibration) Line() string {
	return c.For() + ": " + c.CostsLine()
}
