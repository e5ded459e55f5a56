package analysis

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/brewput/brewput/results"
)

// The axes a Fit fits throughput against: CPUs within one load, or
// customers (an open loop's servers) on one CPU count.
const (
	ByCPUs = "cpus"
	ByPar  = "par"
)

// Fit is the Universal Scalability Law fitted to one series. A series that
// could not be fitted says why in Error, its numbers null in JSON.
type Fit struct {
	Mode string `json:"mode"`
	// Pkg is a Go benchmark's package, "" for other points.
	Pkg string `json:"pkg,omitempty"`
	// Source is the points' Origin; Sched the model's policy.
	Source string `json:"source"`
	Sched  string `json:"sched,omitempty"`
	// Model tells the model from a machine named "model".
	Model bool `json:"-"`
	// Sigma (σ, contention), Kappa (κ, coherency) and Lambda (λ, the
	// throughput of one) are the fitted law (see Predict).
	Sigma  float64 `json:"sigma"`
	Kappa  float64 `json:"kappa"`
	Lambda float64 `json:"lambda"`
	// PeakN and PeakThroughput are where the curve peaks, claimed only
	// where the throughput falls after it or it lies beyond the data
	// (Extrapolated); else NoPeak is why not, one of the NoPeak kinds
	// (report/text's NoPeakText says it): the series ends flat, the curve
	// turns (at TurnN, TurnThroughput) above the bound or where the
	// throughput (Top at most, at TopN) does not fall, or κ = 0. Ceiling
	// is λ/σ where claimed, LawCeiling whether or not, CeilingWhy why it
	// is not (CeilingAboveBound, CeilingFar).
	PeakN          float64 `json:"peak_n"`
	PeakThroughput float64 `json:"peak_throughput"`
	NoPeak         string  `json:"no_peak,omitempty"`
	TurnN          float64 `json:"turn_n,omitempty"`
	TurnThroughput float64 `json:"turn_throughput,omitempty"`
	Top            float64 `json:"top,omitempty"`
	TopN           float64 `json:"top_n,omitempty"`
	Ceiling        float64 `json:"ceiling"`
	LawCeiling     float64 `json:"law_ceiling,omitempty"`
	CeilingWhy     string  `json:"ceiling_why,omitempty"`
	// Bound is the least structural bound of the points; a peak or
	// ceiling above it is not claimed.
	Bound float64 `json:"bound,omitempty"`
	// SerialFraction is σ of Amdahl's law, the fit with κ = 0.
	SerialFraction float64 `json:"serial_fraction"`
	// R2 is the coefficient of determination and RMSE the root mean
	// square residual, in Unit; see usl.Model.
	R2   float64 `json:"r2"`
	RMSE float64 `json:"rmse"`
	// Law is the one the AIC chose: "linear", "amdahl" (κ = 0) or
	// "universal". Anchored says λ is the throughput at N = 1, not fitted.
	Law      string  `json:"law,omitempty"`
	AIC      float64 `json:"aic"`
	Anchored bool    `json:"anchored,omitempty"`
	// Extrapolated says the peak lies beyond the largest N.
	Extrapolated bool `json:"extrapolated,omitempty"`
	// FlatFrom is the N from which the throughput stays within 2 %, FlatAt
	// its mean there; 0 where the series does not end flat.
	FlatFrom int     `json:"flat_from,omitempty"`
	FlatAt   float64 `json:"flat_at,omitempty"`
	// Error says why the series could not be fitted.
	Error string `json:"error,omitempty"`
	Series
}

// Series is what a fit's throughput is fitted against, under what load, in
// what unit, from what points.
type Series struct {
	// By is what the throughput is fitted against: ByCPUs or ByPar.
	By string `json:"by"`
	// Par is a ByCPUs series' fixed customers, 0 for one per CPU; CPUs a
	// ByPar series' count.
	Par  int     `json:"par,omitempty"`
	CPUs int     `json:"cpus,omitempty"`
	Rate float64 `json:"rate,omitempty"`
	MaxQ int     `json:"maxq,omitempty"`
	Unit string  `json:"unit"`
	// Points counts the distinct N, Observations the points fitted.
	Points       int   `json:"points"`
	N            []int `json:"n"`
	Observations int   `json:"observations"`
}

// MaxCeiling is how many times the largest throughput seen a ceiling may
// be and still be claimed: beyond, the data cannot tell it.
const MaxCeiling = 100

// Why a fit claims no peak (Fit.NoPeak), and its ceiling (CeilingWhy).
const (
	NoPeakFlat        = "flat"             // the series ends flat
	NoPeakAboveBound  = "peak_above_bound" // the curve would peak above the structural bound
	NoPeakNoFall      = "no_fall"          // the curve turns, the throughput does not fall
	NoPeakKappaZero   = "kappa_zero"       // κ = 0: no peak, by σ
	CeilingAboveBound = "above_bound"      // λ/σ lies above the structural bound
	CeilingFar        = "far"              // λ/σ is past MaxCeiling times the most seen
)

// Fitted reports whether the law could be fitted to the series.
func (f Fit) Fitted() bool { return f.Error == "" }

// Predict is the fitted law's throughput at n: λn / (1 + σ(n−1) + κn(n−1)).
func (f Fit) Predict(n float64) float64 {
	return f.Lambda * n / (1 + f.Sigma*(n-1) + f.Kappa*n*(n-1))
}

// HasPeak reports whether the fitted curve peaks: κ > 0, or σ > 1.
func (f Fit) HasPeak() bool { return f.Fitted() && f.NoPeak == "" }

// MarshalJSON writes what the fit does not have as null, or, a bound or
// flat level, leaves it out.
func (f Fit) MarshalJSON() ([]byte, error) {
	type plain Fit // without this method
	g := plain(f)
	none := func(has bool, xs ...*float64) {
		for i := 0; !has && i < len(xs); i++ {
			*xs[i] = math.NaN()
		}
	}
	none(f.Fitted(), &g.Sigma, &g.Kappa, &g.Lambda, &g.Ceiling, &g.Bound, &g.SerialFraction, &g.R2, &g.RMSE, &g.AIC, &g.FlatAt)
	none(f.HasPeak(), &g.PeakN, &g.PeakThroughput)
	none(f.Ceiling > 0, &g.Ceiling)
	none(f.Bound > 0, &g.Bound)
	none(f.FlatFrom > 0, &g.FlatAt)
	none(f.TurnN > 0, &g.TurnN, &g.TurnThroughput)
	none(f.TopN > 0, &g.Top, &g.TopN)
	none(f.LawCeiling > 0, &g.LawCeiling)
	if g.N == nil {
		g.N = []int{} // [], not null
	}
	return results.MarshalNulls(g)
}

// NNoun names what N counts.
func (f Fit) NNoun() string {
	if f.By == ByPar {
		return "customer count"
	}
	return "CPU count"
}

// LoadText describes the series' load: "par=CPUs", "cpus=2, rate=800/s maxq=10".
func (f Fit) LoadText() string {
	var s string
	switch {
	case f.By == ByPar:
		s = "cpus=" + strconv.Itoa(f.CPUs)
	case f.Par == 0:
		s = "par=CPUs"
	default:
		s = "par=" + strconv.Itoa(f.Par)
	}
	if f.Rate > 0 {
		s += ", rate=" + strconv.FormatFloat(f.Rate, 'f', -1, 64) + "/s maxq=" + strconv.Itoa(f.MaxQ)
	}
	return s
}

// SourceText names the series' source: the machine, "model (fifo)".
func (f Fit) SourceText() string { return results.SourceLabel(f.Source, f.Model, f.Sched) }

// UnmarshalJSON reads what MarshalJSON wrote: null as 0.
func (f *Fit) UnmarshalJSON(data []byte) error {
	type plain Fit
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*f = Fit(p)
	f.Model = f.Source == results.SourceModel
	return nil
}
