package results

import (
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

// CalibrationTable is what brewput calibrate shows of a calibration
// (report/text's WriteCalibrationTable says it): each cost with its
// interval and spread (P5 and P95 where a distribution was kept), where,
// when and how it was measured, and the earlier calibrations it carries.
type CalibrationTable struct {
	Costs                 []CostRow
	Repeats, Samples      int
	Host, CPUModel, GoVer string
	Date                  time.Time
	Others                float64
	Forced                bool
	// ForReference says a prediction sets it aside for Reference's costs,
	// no quiet calibration of this machine being kept.
	ForReference bool
	Reference    string
	Note         string
	// CurveConfigs contention curves' configurations on 1 to CurveCPUs.
	CurveConfigs, CurveCPUs int
	// Earlier are the earlier calibrations it carries, newest first;
	// Spans each cost's spread over them; SetAside says a prediction
	// sets this one aside for the newest, Dates whose are listed.
	Earlier  int
	Spans    []CostSpan
	SetAside bool
	Dates    []Dated
}

// CostRow is a cost of a CalibrationTable: its name, median, interval
// and, where kept, its distribution's 5th and 95th percentiles.
type CostRow struct {
	Name           string
	Median, Lo, Hi time.Duration
	P5, P95        time.Duration
	Spread         bool
}

// CostSpan is a cost's medians over several calibrations, Least to Most,
// and the band they span, Lo to Hi.
type CostSpan struct {
	Name                string
	Least, Most, Lo, Hi time.Duration
}

// Dated is a calibration's date and the CPUs other processes used.
type Dated struct {
	Date   time.Time
	Others float64
}
