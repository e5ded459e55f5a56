package scaling

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/explain/scaling/usl"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// The axes Fits fits throughput against.
const (
	// ByCPUs fits throughput against CPUs, within one load.
	ByCPUs = "cpus"
	// ByPar fits throughput against customers (or an open loop's
	// servers), on one CPU count.
	ByPar = "par"
)

// Fit is the Universal Scalability Law fitted to one series of a results
// file: one mode, measured on one machine or predicted by the model under
// one scheduling policy, under one load (ByCPUs) or on one CPU count
// (ByPar). A series that could not be fitted says why in Error, and its
// fitted numbers are 0 in Go and null in JSON.
type Fit struct {
	Mode string `json:"mode"`
	// Source is where the points come from, results.Point.Origin: the
	// machine, or "model"; Sched is the model's scheduling policy.
	Source string `json:"source"`
	Sched  string `json:"sched,omitempty"`
	// Model tells a model's series apart even from a machine named
	// "model"; JSON has it as source and sched.
	Model bool `json:"-"`
	// Series is the series fitted: its axis, load, unit and points.
	Series

	// Sigma (σ, contention), Kappa (κ, coherency) and Lambda (λ, the
	// throughput of one) are the fitted law, X(N) = λN / (1 + σ(N−1) +
	// κN(N−1)).
	Sigma  float64 `json:"sigma"`
	Kappa  float64 `json:"kappa"`
	Lambda float64 `json:"lambda"`
	// PeakN and PeakThroughput are where the curve peaks and its
	// throughput there (usl.Model.Peak), claimed only where the data show
	// it: the throughput falls after it, or it lies beyond the data
	// (Extrapolated). Otherwise they are 0 in Go and null in JSON, and
	// NoPeak says what the series does instead: "flat from 4 CPUs at
	// 1000.0 lattes/s", or a curve with no peak (κ = 0), whose Ceiling
	// is λ/σ, what it approaches. Ceiling is 0 in Go and null in JSON
	// where there is no such limit (the curve peaks, or σ = 0 and it
	// grows without bound) or where it is more than MaxCeiling times the
	// largest throughput seen.
	PeakN          float64 `json:"peak_n"`
	PeakThroughput float64 `json:"peak_throughput"`
	NoPeak         string  `json:"no_peak,omitempty"`
	Ceiling        float64 `json:"ceiling"`
	// Bound is the least structural bound of the series' points (what
	// their machines allow whatever the CPUs; 0 where none says one). A
	// peak or ceiling of the law above it is not claimed: NoPeak says
	// where the law would go and that throughput cannot pass Bound.
	Bound float64 `json:"bound,omitempty"`
	// SerialFraction is σ of Amdahl's law (the fit with κ = 0): the
	// share of the work that does not parallelize.
	SerialFraction float64 `json:"serial_fraction"`
	// Law is the law the AIC chose: "linear" (σ = κ = 0), "amdahl" (κ =
	// 0) or "universal"; a more complex law only where it lowers the AIC
	// by more than 2, so a κ that is not significant is 0. AIC is the
	// chosen fit's. Anchored reports that λ is the throughput measured
	// (or predicted) at N = 1, not a fitted number.
	Law      string  `json:"law,omitempty"`
	AIC      float64 `json:"aic"`
	Anchored bool    `json:"anchored,omitempty"`
	// Extrapolated reports that the peak lies beyond the largest N of
	// the series: the curve's, not the data's.
	Extrapolated bool `json:"extrapolated,omitempty"`
	// FlatFrom is the N from which the throughput stays within 2 % (three
	// N at least), FlatAt its mean there; a flat series claims no peak. 0
	// when the series does not end flat.
	FlatFrom int     `json:"flat_from,omitempty"`
	FlatAt   float64 `json:"flat_at,omitempty"`
	// R2 is the coefficient of determination and RMSE the root mean
	// square residual, in Unit; see usl.Model.
	R2   float64 `json:"r2"`
	RMSE float64 `json:"rmse"`

	// Error says why the series could not be fitted, e.g. "2 CPU counts
	// (1, 2); a fit needs at least 3"; empty when it was.
	Error string `json:"error,omitempty"`
}

// Series is what a fit's series is: what its throughput is fitted
// against, under what load, in what unit, and from what points. JSON has
// it after the fit's numbers.
type Series struct {
	// By is what the throughput is fitted against: ByCPUs or ByPar.
	By string `json:"by"`
	// The series' load. Par is the customers (servers, in an open loop)
	// of a ByCPUs series run with that many whatever the CPUs; 0, left
	// out of JSON, for one per CPU (--par 0) and for ByPar. CPUs is the
	// CPU count of a ByPar series. Rate and MaxQ are an open loop's.
	Par  int     `json:"par,omitempty"`
	CPUs int     `json:"cpus,omitempty"`
	Rate float64 `json:"rate,omitempty"`
	MaxQ int     `json:"maxq,omitempty"`
	Unit string  `json:"unit"`
	// Points is the number of distinct N (CPU or customer counts), N
	// those counts, ascending, and Observations the points fitted,
	// repetitions included.
	Points       int   `json:"points"`
	N            []int `json:"n"`
	Observations int   `json:"observations"`
}

// Fitted reports whether the law could be fitted to the series.
func (f Fit) Fitted() bool { return f.Error == "" }

// Curve returns the fitted law, to predict from; the zero model when the
// series could not be fitted.
func (f Fit) Curve() usl.Model {
	return usl.Model{Sigma: f.Sigma, Kappa: f.Kappa, Lambda: f.Lambda, R2: f.R2, RMSE: f.RMSE,
		Points: f.Observations, Distinct: f.Points}
}

// HasPeak reports whether the fitted curve peaks: κ > 0, or σ > 1.
func (f Fit) HasPeak() bool { return f.Fitted() && f.NoPeak == "" }

// MarshalJSON writes what the fit does not have as null: every fitted
// number of a series that could not be fitted, the peak of a curve without
// one, the ceiling of one that grows without bound. The fit's numbers come
// first, after the mode and source, then what the series is.
func (f Fit) MarshalJSON() ([]byte, error) {
	num := func(v float64, ok bool) *float64 {
		if !ok || !f.Fitted() || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	v := struct {
		Mode           string   `json:"mode"`
		Source         string   `json:"source"`
		Sched          string   `json:"sched,omitempty"`
		Sigma          *float64 `json:"sigma"`
		Kappa          *float64 `json:"kappa"`
		Lambda         *float64 `json:"lambda"`
		PeakN          *float64 `json:"peak_n"`
		PeakThroughput *float64 `json:"peak_throughput"`
		NoPeak         string   `json:"no_peak,omitempty"`
		Ceiling        *float64 `json:"ceiling"`
		Bound          *float64 `json:"bound,omitempty"`
		SerialFraction *float64 `json:"serial_fraction"`
		R2             *float64 `json:"r2"`
		RMSE           *float64 `json:"rmse"`
		Law            string   `json:"law,omitempty"`
		AIC            *float64 `json:"aic"`
		Anchored       bool     `json:"anchored,omitempty"`
		Extrapolated   bool     `json:"extrapolated,omitempty"`
		FlatFrom       int      `json:"flat_from,omitempty"`
		FlatAt         *float64 `json:"flat_at,omitempty"`
		Error          string   `json:"error,omitempty"`
		Series
	}{
		f.Mode, f.Source, f.Sched,
		num(f.Sigma, true), num(f.Kappa, true), num(f.Lambda, true),
		num(f.PeakN, f.HasPeak()), num(f.PeakThroughput, f.HasPeak()), f.NoPeak,
		num(f.Ceiling, f.Ceiling > 0), num(f.Bound, f.Bound > 0), num(f.SerialFraction, true),
		num(f.R2, true), num(f.RMSE, true),
		f.Law, num(f.AIC, true), f.Anchored, f.Extrapolated, f.FlatFrom, num(f.FlatAt, f.FlatFrom > 0), f.Error,
		f.Series,
	}
	if v.N == nil {
		v.N = []int{} // [], not null
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "≥" and "<" as they are
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// WriteFitsJSON writes fits as JSON Lines, one object per series, as
// brewput writes points.
func WriteFitsJSON(w io.Writer, fits []Fit) error {
	for _, f := range fits {
		b, err := f.MarshalJSON()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Mode, err)
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// Fits fits the Universal Scalability Law to each series of points, by
// ByCPUs or ByPar, and returns one Fit per series, fitted or saying why
// not: series of modes in the order the modes first appear, and of one
// mode in the order they first appear. Series are grouped as the report
// draws them: a model's apart from measurements, each machine and each
// scheduling policy apart, and ByCPUs each load apart (one customer per
// CPU, or a fixed number whatever the CPUs; an open loop's rate); ByPar
// each CPU count and rate apart. Every repetition is an observation. The
// error is for an unknown by alone.
func Fits(points []results.Point, by string) ([]Fit, error) {
	var keysOf func(results.Point) []fitKey
	switch by {
	case ByCPUs:
		keysOf = cpuSeries(points)
	case ByPar:
		keysOf = func(p results.Point) []fitKey {
			k := groupOf(p)
			k.cpus = p.CPUs
			return []fitKey{k}
		}
	default:
		return nil, fmt.Errorf("cannot fit against %q; accepted: %s, %s", by, ByCPUs, ByPar)
	}

	var keys []fitKey
	byKey := map[fitKey][]results.Point{}
	var modes []string
	for _, p := range points {
		if !slices.Contains(modes, p.Mode) {
			modes = append(modes, p.Mode)
		}
		for _, k := range keysOf(p) {
			if _, ok := byKey[k]; !ok {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], p)
		}
	}
	slices.SortStableFunc(keys, func(a, b fitKey) int {
		return slices.Index(modes, a.mode) - slices.Index(modes, b.mode)
	})
	out := make([]Fit, len(keys))
	for i, k := range keys {
		out[i] = fitSeries(k, by, byKey[k])
	}
	return out, nil
}

// fitKey identifies a series, as report's seriesKey does.
type fitKey struct {
	origin string
	model  bool
	sched  string
	mode   string
	par    int // ByCPUs: customers or servers, or perCPUPar
	cpus   int // ByPar: the CPU count
	rate   float64
	maxq   int
}

// perCPUPar is fitKey.par of a series run with one customer or server per
// CPU (--par 0), whose points record Par equal to CPUs.
const perCPUPar = -1

// groupOf is the key of p's series before its load's Par is decided.
func groupOf(p results.Point) fitKey {
	return fitKey{origin: p.Origin(), model: p.IsModel(), sched: p.Sched, mode: p.Mode,
		par: perCPUPar, rate: p.Rate, maxq: p.MaxQ}
}

// cpuSeries returns the function giving the ByCPUs series a point belongs
// to, by ParSeries, as report draws them, so that the page's fits are the
// CLI's.
func cpuSeries(points []results.Point) func(results.Point) []fitKey {
	return ParSeries(points, groupOf, func(k fitKey, par int) fitKey {
		k.par = par
		return k
	})
}

// ParSeries returns the function giving the series against CPUs a point
// belongs to, keyed by K: group is the key of a point's series with its
// load's Par undecided (one per CPU), withPar that key with a fixed Par.
// A point whose Par differs from its CPUs ran with that many customers or
// servers whatever the CPUs; one whose Par equals its CPUs ran with one
// per CPU (--par 0, the default) unless its mode, source and rate were
// also run with that fixed Par at other CPU counts. Keying every point by
// Par would cut a default sweep into one point per CPU count. A point
// that fits both, Par P on P CPUs in both sweeps, belongs to both series.
func ParSeries[K comparable](points []results.Point, group func(results.Point) K, withPar func(K, int) K) func(results.Point) []K {
	type fixedPar struct {
		group K
		par   int
	}
	fixed := map[fixedPar]bool{}
	for _, p := range points {
		if p.Par != p.CPUs {
			fixed[fixedPar{group(p), p.Par}] = true
		}
	}
	hasPerCPU := map[K]bool{}
	for _, p := range points {
		if p.Par == p.CPUs && !fixed[fixedPar{group(p), p.Par}] {
			hasPerCPU[group(p)] = true
		}
	}
	return func(p results.Point) []K {
		g := group(p)
		var out []K
		if p.Par != p.CPUs || fixed[fixedPar{g, p.Par}] {
			out = append(out, withPar(g, p.Par))
		}
		if p.Par == p.CPUs && hasPerCPU[g] {
			out = append(out, g)
		}
		return out
	}
}

// fitSeries fits one series' points.
func fitSeries(k fitKey, by string, ps []results.Point) Fit {
	f := Fit{Mode: k.mode, Source: k.origin, Sched: k.sched, Model: k.model,
		Series: Series{By: by, CPUs: k.cpus, Rate: k.rate, MaxQ: k.maxq, Unit: ps[0].Unit, Observations: len(ps)}}
	if by == ByCPUs && k.par != perCPUPar {
		f.Par = k.par
	}
	obs := make([]usl.Observation, len(ps))
	for i, p := range ps {
		n := p.CPUs
		if by == ByPar {
			n = p.Par
		}
		obs[i] = usl.Observation{N: float64(n), X: p.Throughput}
		if b := p.Bounds; b != nil && b.Structural > 0 && (f.Bound == 0 || b.Structural < f.Bound) {
			f.Bound = b.Structural
		}
		if !slices.Contains(f.N, n) {
			f.N = append(f.N, n)
		}
	}
	slices.Sort(f.N)
	f.Points = len(f.N)

	// λ is the throughput of one: where the series has N = 1, that is
	// what was seen there, not a fitted number.
	anchor, at1 := 0.0, 0
	for _, o := range obs {
		if o.N == 1 {
			anchor += o.X
			at1++
		}
	}
	if at1 > 0 {
		anchor /= float64(at1)
	}
	m, err := usl.Select(obs, anchor)
	if err != nil {
		f.Error = fitError(err, f.nNoun())
		return f
	}
	a, err := usl.FitAmdahl(obs)
	if err != nil { // cannot be, as Select took the same observations
		f.Error = "Amdahl's law: " + err.Error()
		return f
	}
	f.Sigma, f.Kappa, f.Lambda, f.R2, f.RMSE = m.Sigma, m.Kappa, m.Lambda, m.R2, m.RMSE
	f.Law, f.Anchored, f.AIC = string(m.Law), m.Anchored, m.AIC
	f.SerialFraction = a.Sigma
	f.claims(m, obs)
	return f
}

// Flat is how close the throughputs of a series' last CPU counts must be
// to one another for the series to be flat from there: 2 %.
const Flat = 0.02

// MaxCeiling is how far above the largest throughput seen a ceiling may
// be and still be printed: 100 times. Beyond, the data cannot tell it.
const MaxCeiling = 100

// claims sets what the fit says of the series' shape, no more than its
// data show: flat from some N on (at least three N within Flat of each
// other); a peak only where the throughput falls after it, or beyond the
// data as extrapolated; a ceiling λ/σ only up to MaxCeiling times the
// largest throughput seen.
func (f *Fit) claims(m usl.Model, obs []usl.Observation) {
	ns, means := meansByN(obs)
	top := slices.Max(means)
	noun := "CPUs"
	if f.By == ByPar {
		noun = "customers"
	}
	unit := strings.TrimSpace(" " + f.Unit)
	// Flat from the first of the last N whose means all lie within Flat.
	lo, hi, from := math.Inf(1), 0.0, -1
	for i := len(means) - 1; i >= 0; i-- {
		lo, hi = min(lo, means[i]), max(hi, means[i])
		if hi > lo*(1+Flat) {
			break
		}
		from = i
	}
	if from >= 0 && len(means)-from >= 3 {
		sum := 0.0
		for _, x := range means[from:] {
			sum += x
		}
		f.FlatFrom, f.FlatAt = int(ns[from]), sum/float64(len(means)-from)
		f.NoPeak = fmt.Sprintf("flat from %s at %.1f %s", format.Count(f.FlatFrom, strings.TrimSuffix(noun, "s")), f.FlatAt, unit)
		f.ceiling(m, top)
		return
	}
	if n, x, ok := m.Peak(); ok {
		last := ns[len(ns)-1]
		if f.Bound > 0 && x > f.Bound {
			f.NoPeak = fmt.Sprintf("the fitted curve would peak at %.1f %s at %.1f %s, above the structural bound of %.1f %s, which throughput cannot pass", x, unit, n, noun, f.Bound, unit)
			return
		}
		switch {
		case n > last:
			f.PeakN, f.PeakThroughput, f.Extrapolated = n, x, true
			return
		case means[len(means)-1] < top*(1-Flat):
			f.PeakN, f.PeakThroughput = n, x
			return
		}
		f.NoPeak = fmt.Sprintf("none seen: the throughput does not fall (highest %.1f %s at %g %s); the fitted curve turns at %.1f %s", top, unit, ns[slices.Index(means, top)], noun, n, noun)
		return
	}
	cond, what := noPeak(m)
	if m.Sigma == 0 && f.Bound > 0 {
		what = fmt.Sprintf("grows in proportion over the data, and cannot pass the structural bound of %.1f %s", f.Bound, unit)
	}
	f.NoPeak = cond + ": throughput " + what
	f.ceiling(m, top)
}

// ceiling sets λ/σ, what an Amdahl curve approaches, where it is no more
// than MaxCeiling times top, the largest throughput seen; past that the
// data cannot tell it, and NoPeak says so.
func (f *Fit) ceiling(m usl.Model, top float64) {
	c, ok := m.Ceiling()
	if !ok || m.Kappa > 0 {
		return
	}
	if f.Bound > 0 && c > f.Bound {
		above := fmt.Sprintf("λ/σ = %.1f lies above the structural bound of %.1f %s, which throughput cannot pass", c, f.Bound, strings.TrimSpace(f.Unit))
		if f.FlatFrom == 0 {
			f.NoPeak = "κ = 0: " + above
		} else {
			f.NoPeak += "; the law's " + above
		}
		return
	}
	if c > MaxCeiling*top {
		if f.FlatFrom == 0 {
			f.NoPeak = fmt.Sprintf("κ = 0: throughput grows over the whole series; where it would stop (λ/σ) is past %d× the largest throughput seen, which the data cannot tell", MaxCeiling)
		}
		return
	}
	f.Ceiling = c
}

// meansByN returns the distinct N of obs, ascending, and the mean
// throughput at each.
func meansByN(obs []usl.Observation) (ns, means []float64) {
	sum, count := map[float64]float64{}, map[float64]int{}
	for _, o := range obs {
		if count[o.N] == 0 {
			ns = append(ns, o.N)
		}
		sum[o.N] += o.X
		count[o.N]++
	}
	slices.Sort(ns)
	for _, n := range ns {
		means = append(means, sum[n]/float64(count[n]))
	}
	return ns, means
}

// fitError says why a series could not be fitted, in its own terms: "2 CPU
// counts (1, 2); a fit needs at least 3".
func fitError(err error, noun string) string {
	var few *usl.TooFewPointsError
	if errors.As(err, &few) {
		return fmt.Sprintf("%s (%s); a fit needs at least %d", format.Count(len(few.N), noun), usl.FormatNs(few.N), few.Need)
	}
	return err.Error()
}

// nNoun names what N counts.
func (f Fit) nNoun() string {
	if f.By == ByPar {
		return "customer count"
	}
	return "CPU count"
}

// noPeak says, of a curve without a peak (κ = 0, σ ≤ 1), why not and what
// it does instead: the condition, "κ = 0", and "approaches λ/σ = 1000.0".
func noPeak(m usl.Model) (cond, what string) {
	switch {
	case m.Sigma == 0:
		return "κ = 0 and σ = 0", "grows in proportion, without bound"
	case m.Sigma == 1:
		return "κ = 0 and σ = 1", fmt.Sprintf("stays flat at λ = %.1f", m.Lambda)
	}
	c, _ := m.Ceiling()
	return "κ = 0", fmt.Sprintf("approaches λ/σ = %.1f", c)
}

// PeakText describes the peak for people: "1160.2 lattes/s at 6.5 CPUs",
// noting a peak beyond the largest N fitted, or "none (κ = 0): approaches
// λ/σ = 1000.0"; "-" when the series could not be fitted.
func (f Fit) PeakText() string {
	if !f.Fitted() {
		return "-"
	}
	if !f.HasPeak() {
		return "none: " + f.NoPeak
	}
	unit := strings.TrimSpace(" " + f.Unit)
	noun := "CPUs"
	if f.By == ByPar {
		noun = "customers"
	}
	s := fmt.Sprintf("%.1f %s at %.1f %s", f.PeakThroughput, unit, f.PeakN, noun)
	if f.Extrapolated {
		s += fmt.Sprintf(", extrapolated beyond the data (up to %d)", f.N[len(f.N)-1])
	}
	return s
}

// LoadText describes the series' load, for telling series of one mode
// apart: "par=CPUs", "par=4", "cpus=2", with ", rate=800/s maxq=10" for an
// open loop.
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

// SourceText names the series' source for people: the machine, or
// "model (fifo)" with its scheduling policy.
func (f Fit) SourceText() string {
	switch {
	case f.Model && f.Sched != "":
		return results.SourceModel + " (" + f.Sched + ")"
	case f.Source == "":
		return "(no source)"
	}
	return f.Source
}
