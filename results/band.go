package results

import (
	"cmp"
	"fmt"
	"strings"
	"time"
)

// Band is the range of throughput and median latency (ms) a go-policy
// prediction spans with the runtime's costs at their ranges' edges.
type Band struct {
	Throughput [2]float64 `json:"throughput"`
	P50Ms      [2]float64 `json:"p50_ms"`
	// Shape, on a prediction of user code past what was measured, is the
	// kind of contention it was read as ("one lock", package curves),
	// whose curves the band is read off.
	Shape string `json:"shape,omitempty"`
	// Undecided are the other kinds its runs read as, where they lie on
	// both sides of a boundary: the band holds all their bands.
	Undecided []string `json:"undecided,omitempty"`
}

// Calibration is the Go runtime's costs a prediction used: where and
// when they were measured.
type Calibration struct {
	Host string    `json:"host"`
	Date time.Time `json:"date"`
	// Others is the CPUs other processes used while it measured (see Busy);
	// Forced says it was saved although busy, Unsaved used for one run only.
	Others  float64 `json:"others_cpus"`
	Forced  bool    `json:"forced,omitempty"`
	Unsaved bool    `json:"unsaved,omitempty"`
	// Costs are in brewput calibrate's order; Given names the flags that
	// replaced measured ones.
	Costs []Cost   `json:"costs"`
	Given []string `json:"given,omitempty"`
	// Calibrations counts the machine's calibrations since Since whose
	// intervals the Costs' Lo and Hi span; 0 for one alone.
	Calibrations int       `json:"calibrations,omitempty"`
	Since        time.Time `json:"since,omitzero"`
	// SetAside is a calibration from a busy machine the run did not use,
	// these costs being used in its place; nil for none.
	SetAside *SetAside `json:"set_aside,omitempty"`
}

// SetAside is a calibration measured on a busy machine that a run set
// aside, kept for the record: on a busy machine costs vary between
// calibrations far more than within one's intervals.
type SetAside struct {
	Date    time.Time `json:"date"`
	Others  float64   `json:"others_cpus"`
	Forced  bool      `json:"forced,omitempty"`
	Unsaved bool      `json:"unsaved,omitempty"`
	Costs   []Cost    `json:"costs"`
	// Reference says the costs used are brewput's reference machine's, no
	// quiet calibration of this one being kept, and the band spans an
	// unknown machine's cost of moving a cache line.
	Reference bool `json:"reference,omitempty"`
}

// Line says what was set aside and what is used instead, in one line.
func (s SetAside) Line() string {
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

// Cost is one of the go policy's costs, named as brewput calibrate prints
// it: its median, and the range a band spans, its confidence interval over
// the calibrations its Calibration counts (Lo = Hi = Median for one given).
type Cost struct {
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

// Busy reports whether c was measured while other processes used
// DisturbedCPUs or more (or was marked so): its wake-up then reads high,
// the woken thread waiting for a core.
func (c Calibration) Busy() bool {
	if c.Host == "none" {
		return false
	}
	return c.Forced || c.Unsaved || c.Others >= DisturbedCPUs
}

// For says whose costs they are, how far to trust them (Quality) and what
// was set aside for them: "for vm's runtime costs, measured 2026-11-22
// 10:00 UTC on a quiet machine (other processes used 0.02 CPUs)".
func (c Calibration) For() string {
	s := "for costs given as flags"
	if c.Host != "none" {
		s = "for " + cmp.Or(c.Host, "an unnamed host") + "'s runtime costs"
		if !c.Date.IsZero() {
			s += ", measured " + c.Date.UTC().Format("2006-01-02 15:04 MST")
		}
		if q := c.Quality(); q != "" {
			s += " " + q
		}
	}
	if a := c.SetAside; a != nil {
		s += "; " + a.Line()
	}
	return s
}

// Covers says what a band made with c spans, and what it leaves out.
func (c Calibration) Covers() string {
	if c.Host == "none" {
		return ""
	}
	s := "its band spans the costs' 95 % intervals"
	if c.Calibrations > 1 {
		s += fmt.Sprintf(" over %d calibrations of this machine since %s", c.Calibrations, c.Since.UTC().Format("2006-01-02 15:04 MST"))
	}
	return s + ", not the mechanisms the model leaves out"
}

// Quality says how far a measured calibration's costs can be trusted, by
// how busy the machine was; "" for costs given.
func (c Calibration) Quality() string {
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

// Line describes c in one line, with what its band spans (Covers).
func (c Calibration) Line() string {
	s := c.For() + ": " + c.CostsLine()
	if cv := c.Covers(); cv != "" {
		s += "; " + cv
	}
	return s
}
