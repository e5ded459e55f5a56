package analysis

import (
	"encoding/json"
	"math"

	"github.com/brewput/brewput/results"
)

// Near is how close to the most a mode's throughput must be to count among
// the best: about what two runs of one point differ by on a busy machine.
const Near = 0.05

// Verdict is the answer a study gives, computed from its points.
type Verdict struct {
	// Counts are the CPU counts of interest: the most measured, the first
	// the model predicts a new wall at, the most predicted.
	Counts []Count `json:"counts,omitempty"`
	// Modes says what limits each mode at the most CPUs it has.
	Modes []ModeLimit `json:"modes,omitempty"`
	// Unit is what every mode's throughput counts, "" where they differ.
	Unit string `json:"unit,omitempty"`
	// Studies describe the user's own code, with no limit.
	Studies []Described `json:"studies,omitempty"`
	// Benches answer the Go benchmarks, a family of variants each.
	Benches []BenchFamily `json:"benches,omitempty"`
}

// Empty reports whether the verdict says nothing.
func (v Verdict) Empty() bool {
	return len(v.Counts) == 0 && len(v.Studies) == 0 && len(v.Benches) == 0
}

// Count is what a CPU count of interest shows of the shop's modes.
type Count struct {
	CPUs int `json:"cpus"`
	// Where its figures come from: measured on Host; Model says they are
	// all predicted, by Predictor ("model (go)") with Calibration's costs;
	// Mixed that Measured of the ranked modes are measured, the others
	// predicted.
	Host        string               `json:"host,omitempty"`
	Model       bool                 `json:"model,omitempty"`
	Predictor   string               `json:"predictor,omitempty"`
	Calibration *results.Calibration `json:"calibration,omitempty"`
	Mixed       bool                 `json:"mixed,omitempty"`
	Measured    int                  `json:"measured,omitempty"`
	// Unit is what the compared modes count; Every says each mode of the
	// study has a point on this count.
	Unit  string `json:"unit"`
	Every bool   `json:"every"`
	// Best are the modes within Near of the most, Leaders each with what
	// sets it apart (predicted among measured, an open loop's rate); Lo
	// to Hi their throughput, P50Lo to P50Hi in ms.
	Best    []string `json:"best"`
	Leaders []Below  `json:"leaders"`
	Lo      float64  `json:"lo"`
	Hi      float64  `json:"hi"`
	P50Lo   float64  `json:"p50_lo_ms"`
	P50Hi   float64  `json:"p50_hi_ms"`
	// Band spans Best's predictions' bands; nil where any of them is
	// measured or has no band.
	Band *[2]float64 `json:"band,omitempty"`
	// Rest make less, the most first.
	Rest []Below `json:"rest,omitempty"`
	// Unranked are the disturbed modes, left out of Best and Rest, the
	// most first; Inconclusive is InconclusiveDisturbed where none is left.
	Unranked     []Below `json:"unranked,omitempty"`
	Inconclusive string  `json:"inconclusive,omitempty"`
	// Disturbed of the All points measured here were disturbed.
	Disturbed int `json:"disturbed"`
	All       int `json:"all"`
	// References are designs with a data race, never among the best;
	// Apart are modes counting another unit.
	References []Reference `json:"references,omitempty"`
	Apart      []Reference `json:"apart,omitempty"`
	// Caveats are what the model says of the ranked modes' figures here.
	Caveats []ModeCaveat `json:"caveats,omitempty"`
}

// ModeCaveat is a caveat on a mode's prediction.
type ModeCaveat struct {
	Mode string `json:"mode"`
	results.Caveat
}

// InconclusiveDisturbed is Count.Inconclusive where every point measured
// at the count was disturbed.
const InconclusiveDisturbed = "disturbed"

// Reference is a mode's throughput at a count, said apart.
type Reference struct {
	Mode       string  `json:"mode"`
	Throughput float64 `json:"throughput"`
	Unit       string  `json:"unit"`
}

// Below is a mode that makes less than the best at a count.
type Below struct {
	Mode       string  `json:"mode"`
	Throughput float64 `json:"throughput"`
	// Model says it is predicted, among measured ones.
	Model bool  `json:"model,omitempty"`
	Limit Limit `json:"limit"`
	// Predicted is the model's throughput for a measurement, where it
	// differs by more than Near.
	Predicted float64 `json:"predicted,omitempty"`
	// Rate is an open loop's arrivals a second, 0 for a closed one.
	Rate      float64 `json:"rate,omitempty"`
	Disturbed bool    `json:"disturbed,omitempty"`
}

// ModeLimit is what limits one mode at the most CPUs it has.
type ModeLimit struct {
	Mode string `json:"mode"`
	CPUs int    `json:"cpus"`
	Unit string `json:"unit"`
	// Source is "measured" (on Host) or "model (go)", as Entry's.
	Source string `json:"source"`
	Host   string `json:"host,omitempty"`
	Model  bool   `json:"model,omitempty"`
	// Sched is a prediction's policy.
	Sched string `json:"sched,omitempty"`
	// Throughput and P50 (ms) at CPUs, Band a prediction's throughput band.
	Throughput float64     `json:"throughput"`
	P50        float64     `json:"p50_ms"`
	Band       *[2]float64 `json:"band,omitempty"`
	Limit      Limit       `json:"limit"`
	// From is the least CPU count from which Limit's class holds up to
	// CPUs; First the least the mode has.
	From  int `json:"from"`
	First int `json:"first"`
	// Races says the mode has a data race: a reference.
	Races bool `json:"races,omitempty"`
	// Caveats are what the model says of its own figure at CPUs.
	Caveats []results.Caveat `json:"caveats,omitempty"`
}

// Limit is what limits a point, as its causal profile found it.
type Limit struct {
	// Class is "cpus", "customers", a machine's or resource's kind,
	// "machines" (several), "channel", "step", "none" or "unknown".
	Class string `json:"class"`
	// Of names it (report/text's LimitName): "the grinder", "the CPUs".
	Of results.Named `json:"of"`
	// With says the CPUs or the customers bind together with the machines
	// Class names: the map marks such a cell, its colour not all the limit.
	With bool `json:"with,omitempty"`
	// Change is the best change tried, Gain its gain (0.5 is 50 % more);
	// Combined says it relieves several at once.
	Change   *results.Experiment `json:"change,omitempty"`
	Gain     float64             `json:"gain,omitempty"`
	Combined bool                `json:"combined,omitempty"`
}

// Scales reports whether more CPUs (or the customers they bring) help.
func (l Limit) Scales() bool { return l.Class == "cpus" || l.Class == "customers" }

// Grid is the shop's points laid out as modes by CPU counts.
type Grid struct {
	Modes []string `json:"modes"`
	CPUs  []int    `json:"cpus"`
	Cells []Cell   `json:"cells"`
}

// At returns the cell of mode on cpus, if there is one.
func (g *Grid) At(mode string, cpus int) (*Cell, bool) {
	for i := range g.Cells {
		if c := &g.Cells[i]; c.Mode == mode && c.CPUs == cpus {
			return c, true
		}
	}
	return nil, false
}

// Cell is one mode on one CPU count: its measurement and prediction.
type Cell struct {
	Mode     string `json:"mode"`
	CPUs     int    `json:"cpus"`
	Measured *Entry `json:"measured,omitempty"`
	Model    *Entry `json:"model,omitempty"`
}

// Shown is the measurement, or else the prediction.
func (c *Cell) Shown() *Entry {
	if c.Measured != nil {
		return c.Measured
	}
	return c.Model
}

// Entry is one kind of point of a cell, its repetitions' medians.
type Entry struct {
	// Source is "measured" (on Host) or "model (go)".
	Source string `json:"source"`
	Host   string `json:"host,omitempty"`
	Model  bool   `json:"model,omitempty"`
	// Disturbed counts the Reps repetitions that were.
	Throughput float64 `json:"throughput"`
	P50        float64 `json:"p50_ms"`
	P99        float64 `json:"p99_ms"`
	Util       float64 `json:"util"`
	Unit       string  `json:"unit"`
	// Band is a prediction's throughput band, its first repetition's.
	Band      *[2]float64 `json:"band,omitempty"`
	Reps      int         `json:"reps"`
	Disturbed int         `json:"disturbed"`
	// Limit, Rate and Sched are the first repetition's; First is its
	// index in the grid's points.
	Limit Limit   `json:"limit"`
	Rate  float64 `json:"rate,omitempty"`
	Sched string  `json:"sched,omitempty"`
	First int     `json:"first"`
	// Calibration is a go-policy prediction's costs.
	Calibration *results.Calibration `json:"calibration,omitempty"`
	// Caveats are a prediction's, its first repetition's.
	Caveats []results.Caveat `json:"caveats,omitempty"`
}

// Versus is one variant's median throughput over another's, with the
// range the medians' 95 % intervals allow (null where too few runs).
type Versus struct {
	Variant    string  `json:"variant"`
	Throughput float64 `json:"throughput"` // its median
	Ratio      float64 `json:"ratio"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	// Runs are the runs on each side, the variant's and the other's.
	Runs [2]int `json:"runs"`
	// Disturbed says a run of either side was: the ratio is said, never
	// taken for a difference.
	Disturbed bool `json:"disturbed,omitempty"`
}

// MarshalJSON writes an infinite end of the interval, or a ratio that
// is not a number, as null.
func (v Versus) MarshalJSON() ([]byte, error) {
	type plain Versus // without this method
	return results.MarshalNulls(plain(v))
}

// UnmarshalJSON reads what MarshalJSON wrote: null as no interval.
func (v *Versus) UnmarshalJSON(data []byte) error {
	type plain Versus
	p := plain{Ratio: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}
	err := json.Unmarshal(data, &p)
	*v = Versus(p)
	return err
}

// Known reports whether the ratio has an interval.
func (v Versus) Known() bool { return !math.IsInf(v.Lo, 0) && !math.IsInf(v.Hi, 0) }

// Differs reports whether the interval excludes 1, no run disturbed.
func (v Versus) Differs() bool { return v.Known() && !v.Disturbed && (v.Hi < 1 || v.Lo > 1) }

// Standing is what one CPU count shows of variants measured alike: the
// most (Top), and each other against it.
type Standing struct {
	CPUs int `json:"cpus"`
	// Host is the machine they were measured on, "" where the caller
	// says it once for several.
	Host string `json:"host,omitempty"`
	Unit string `json:"unit"`
	// TopP50 is Top's median latency in ms, 0 where not told.
	Top           string  `json:"top"`
	TopThroughput float64 `json:"top_throughput"`
	TopP50        float64 `json:"top_p50_ms,omitempty"`
	// Less lie below Top, Same do not differ, Unknown have no interval,
	// Untold had disturbed runs (on either side); each the most first.
	Less    []Versus `json:"less,omitempty"`
	Same    []Versus `json:"same,omitempty"`
	Unknown []Versus `json:"unknown,omitempty"`
	Untold  []Versus `json:"untold,omitempty"`
	// Inconclusive is InconclusiveDisturbed where every variant had a
	// disturbed run: Top made the most, but is not said to.
	Inconclusive string `json:"inconclusive,omitempty"`
	// Disturbed are the disturbed runs; Every says all were.
	Disturbed []Runs `json:"disturbed,omitempty"`
	Every     bool   `json:"every_disturbed,omitempty"`
	// CountFlag is the measuring command's flag for a count of runs,
	// RunsForInterval how many a side needs for an interval.
	CountFlag       string `json:"count_flag"`
	RunsForInterval int    `json:"runs_for_interval"`
}

// Scaling is how each variant's median throughput changed from From CPUs to To.
type Scaling struct {
	From            int      `json:"from"`
	To              int      `json:"to"`
	Changes         []Versus `json:"changes"`
	CountFlag       string   `json:"count_flag"`
	RunsForInterval int      `json:"runs_for_interval"`
}

// Described is what the verdict says of one study's variants: which
// makes the most, by how much, how each scaled; no limit.
type Described struct {
	Study   string     `json:"study"`
	Unit    string     `json:"unit"`
	Counts  []Standing `json:"counts,omitempty"`
	Scaling *Scaling   `json:"scaling,omitempty"`
	// Prediction is the study's model's, where there are predictions.
	Prediction *Prediction `json:"prediction,omitempty"`
}

// BenchFamily is Go benchmarks of one package, measured alike, that differ
// in one part of their names, as benchstat -col sets them side by side.
type BenchFamily struct {
	// Name has the part they differ in as *: Cache/design=*/load=read.
	Name   string `json:"name"`
	Pkg    string `json:"pkg"`
	Origin string `json:"origin"`
	// Variants are that part of each, Benchmarks their full names.
	Variants   []string   `json:"variants"`
	Benchmarks []string   `json:"benchmarks"`
	Counts     []Standing `json:"counts,omitempty"`
	Scaling    *Scaling   `json:"scaling,omitempty"`
}

// Prediction is what a study's model says of its variants on the most
// CPUs predicted, and its Checks against measurements.
type Prediction struct {
	Sched string `json:"sched"`
	// Calibration is the costs it was simulated with; nil under fifo.
	Calibration *results.Calibration `json:"calibration,omitempty"`
	// At are the variants at CPUs, the most first.
	CPUs   int         `json:"cpus"`
	At     []Predicted `json:"at"`
	Checks []Check     `json:"checks,omitempty"`
}

// Predicted is one variant's predicted throughput, with its band.
type Predicted struct {
	Variant    string        `json:"variant"`
	Throughput float64       `json:"throughput"`
	Unit       string        `json:"unit"`
	Band       *results.Band `json:"band,omitempty"`
	// Locked says its model holds a lock.
	Locked bool `json:"locked"`
	// Caveats are what the model says of this figure.
	Caveats []results.Caveat `json:"caveats,omitempty"`
}

// Check is a study's prediction against a measurement.
type Check struct {
	Variant  string  `json:"variant"`
	CPUs     int     `json:"cpus"`
	Measured float64 `json:"measured"` // the median of the runs' throughput
	Runs     int     `json:"runs"`
	// Disturbed says one of the runs was.
	Disturbed bool `json:"disturbed,omitempty"`
	// Lo and Hi are Predicted's band (itself where it has none).
	Predicted float64 `json:"predicted"`
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
}

// resolution is how finely a prediction can reproduce a measurement: its
// steps are whole nanoseconds, its window whole cycles.
const resolution = 0.005

// WideBand is how many times its low end a band's high end may be and
// still tell designs apart.
const WideBand = 1.5

// Wide reports whether the band is too wide to tell designs apart.
func (c Check) Wide() bool { return c.Lo > 0 && c.Hi > WideBand*c.Lo }

// Within reports whether the measurement lies within the band.
func (c Check) Within() bool {
	return c.Measured >= c.Lo*(1-resolution) && c.Measured <= c.Hi*(1+resolution)
}

// Off is the measurement's distance from the band's nearest edge, relative to it.
func (c Check) Off() float64 {
	switch {
	case c.Within():
		return 0
	case c.Measured < c.Lo:
		return c.Measured/c.Lo - 1
	}
	return c.Measured/c.Hi - 1
}

// LabAnswer is a lab's answer: on each CPU count of interest, the variant
// that makes the most and the least.
type LabAnswer struct {
	Lab     string   `json:"lab"`
	Origins []string `json:"origins"`
	// Points counts the first repetitions, Disturbed those that were,
	// named in DisturbedPoints ("simple (par 8) on 1 CPU").
	Points          int        `json:"points"`
	Disturbed       int        `json:"disturbed"`
	DisturbedPoints []string   `json:"disturbed_points,omitempty"`
	CPUs            []int      `json:"cpus"`
	Counts          []LabCount `json:"counts"`
}

// LabCount is what one CPU count shows of a lab, in one unit.
type LabCount struct {
	CPUs int `json:"cpus"`
	// Unit is said where the lab's variants count several things.
	Unit string `json:"unit,omitempty"`
	// Most and Least are of the points not disturbed, Ranked of them;
	// where Disturbed names any, which makes the most is inconclusive.
	Most      LabPoint   `json:"most"`
	Least     LabPoint   `json:"least"`
	Ranked    int        `json:"ranked"`
	Disturbed []LabPoint `json:"disturbed,omitempty"`
	Single    bool       `json:"single,omitempty"`
}

// Inconclusive reports whether a disturbed contender leaves the most untold.
func (c LabCount) Inconclusive() bool { return len(c.Disturbed) > 0 }

// LabPoint is a lab's point as its answer names it.
type LabPoint struct {
	Variant string `json:"variant"`
	// Par is said where the variant was measured at several loads.
	Par        int     `json:"par,omitempty"`
	Disturbed  bool    `json:"disturbed,omitempty"`
	Throughput float64 `json:"throughput"`
	Unit       string  `json:"unit"`
	P50        float64 `json:"p50_ms"`
	CPUUsed    float64 `json:"cpu_used"`
}

// Runs are a variant's disturbed runs: Reps (from 1) of Of.
type Runs struct {
	Variant string `json:"variant"`
	Reps    []int  `json:"reps"`
	Of      int    `json:"of"`
	// CPUs is the count they were measured on, where said.
	CPUs int `json:"cpus,omitempty"`
}

// Ranges is the compact table of the shop's measured points, or of its
// predictions: a row per mode and series.
type Ranges struct {
	Model bool `json:"model"`
	// Sched is the predictions' one policy, "" where several.
	Hosts        []string              `json:"hosts,omitempty"`
	Sched        string                `json:"sched,omitempty"`
	Calibrations []results.Calibration `json:"calibrations,omitempty"`
	// Points counts the points; Reps says some count has several runs.
	Points int        `json:"points"`
	Reps   bool       `json:"reps,omitempty"`
	Rows   []RangeRow `json:"rows"`
}

// RangeRow is one mode's series: its figures on each CPU count, least
// first, and what limits it where.
type RangeRow struct {
	Mode  string `json:"mode"`
	Races bool   `json:"races,omitempty"`
	// Load is said where the mode has several Series (or Policies), an
	// open loop or the talk's harness.
	Load     *RowLoad `json:"load,omitempty"`
	Series   bool     `json:"series,omitempty"`
	Policies bool     `json:"policies,omitempty"`
	// Host is said where the mode's series were measured on several.
	Host   string      `json:"host,omitempty"`
	Unit   string      `json:"unit"`
	Cells  []RangeCell `json:"cells"`
	Limits []LimitSpan `json:"limits"`
}

// RangeCell is a series on one CPU count: its runs' medians.
type RangeCell struct {
	CPUs       int     `json:"cpus"`
	Throughput float64 `json:"throughput"`
	P50        float64 `json:"p50_ms"`
	Reps       int     `json:"reps"`
	Disturbed  int     `json:"disturbed,omitempty"`
}

// RowLoad is a series' load and policy.
type RowLoad struct {
	Sched   string  `json:"sched,omitempty"`
	Rate    float64 `json:"rate,omitempty"`
	Par     int     `json:"par"`
	PerCPU  bool    `json:"per_cpu,omitempty"`
	Harness string  `json:"harness,omitempty"`
}

// LimitSpan is what limits a series over CPU counts From to To, named as
// a point it limits names it; Scales says it is the CPUs or the load.
type LimitSpan struct {
	Of     results.Named `json:"of"`
	From   int           `json:"from"`
	To     int           `json:"to"`
	Scales bool          `json:"scales,omitempty"`
}

// StudyTable is the compact table of the studies' measured points: a row
// per variant, CPU count and series.
type StudyTable struct {
	Studies []string `json:"studies"`
	Hosts   []string `json:"hosts"`
	Points  int      `json:"points"`
	// Reps says there are repetitions, Open an open loop.
	Reps      bool       `json:"reps,omitempty"`
	Open      bool       `json:"open,omitempty"`
	Rows      []StudyRow `json:"rows"`
	Disturbed []Runs     `json:"disturbed,omitempty"`
}

// StudyRow is a variant on a CPU count.
type StudyRow struct {
	Variant string  `json:"variant"`
	CPUs    int     `json:"cpus"`
	Par     int     `json:"par"`
	Runs    int     `json:"runs"`
	Rate    float64 `json:"rate,omitempty"`
	Drops   int64   `json:"drops,omitempty"`
	// Throughput, P50, P99 (ms) and Util are medians; Share is the
	// throughput over its study's most on that count and series.
	Throughput float64 `json:"throughput"`
	Unit       string  `json:"unit"`
	Share      float64 `json:"share"`
	P50        float64 `json:"p50_ms"`
	P99        float64 `json:"p99_ms"`
	Util       float64 `json:"util"`
	// Meter is the meter the first run used the most, in words.
	Meter  string `json:"meter"`
	Origin string `json:"origin"`
}
