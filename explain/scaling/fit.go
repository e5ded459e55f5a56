// Package scaling answers "how does it scale?": the Universal Scalability
// Law, Amdahl's law or a straight line fitted to each series and chosen by
// AIC, with what the data show of its peak.
package scaling

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/brewput/brewput/explain/scaling/usl"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// The axes Fits fits throughput against (see analysis.ByCPUs).
const (
	ByCPUs = analysis.ByCPUs
	ByPar  = analysis.ByPar
)

// Fit is the law fitted to one series (analysis.Fit).
type Fit = analysis.Fit

// Fits fits each series of points against by (ByCPUs or ByPar) and
// returns a Fit per series, fitted or saying why not, modes in the order
// they first come. Series are split as the report draws them: by machine
// or policy, and ByCPUs by load, ByPar by CPU count and rate.
func Fits(points []results.Point, by string) ([]Fit, error) {
	var keysOf func(results.Point) []fitKey
	switch by {
	case ByCPUs:
		keysOf = analysis.ParSeries(points, groupOf, func(k fitKey, par int) fitKey {
			k.par = par
			return k
		})
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
	order := map[string]int{} // modes in the order they come
	for _, p := range points {
		if _, ok := order[p.Mode]; !ok {
			order[p.Mode] = len(order)
		}
		for _, k := range keysOf(p) {
			if _, ok := byKey[k]; !ok {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], p)
		}
	}
	slices.SortStableFunc(keys, func(a, b fitKey) int { return order[a.mode] - order[b.mode] })
	return collect.Mapped(keys, func(k fitKey) Fit { return fitSeries(k, by, byKey[k]) }), nil
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

// fitSeries fits one series' points.
func fitSeries(k fitKey, by string, ps []results.Point) Fit {
	f := Fit{Mode: k.mode, Source: k.origin, Sched: k.sched, Model: k.model,
		Series: analysis.Series{By: by, CPUs: k.cpus, Rate: k.rate, MaxQ: k.maxq, Unit: ps[0].Unit, Observations: len(ps)}}
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
		f.N = collect.AppendNew(f.N, n)
	}
	slices.Sort(f.N)
	f.Points = len(f.N)

	// λ is the throughput of one: seen, where the series has N = 1.
	anchor := 0.0
	if ns, means := meansByN(obs); slices.Contains(ns, 1) {
		anchor = means[slices.Index(ns, 1)]
	}
	m, err := usl.Select(obs, anchor)
	if err != nil {
		f.Error = fitError(err, f.NNoun()).Error()
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
	claims(&f, m, obs)
	return f
}

// Flat is how close a series' last throughputs must be for it to be flat.
const Flat = 0.02

// MaxCeiling is how many times the largest throughput seen a ceiling may
// be and still be claimed: beyond, the data cannot tell it.
const MaxCeiling = analysis.MaxCeiling

// claims sets what the fit says of the series' shape, no more than its
// data show: flat from some N on (three N at least); a peak only where the
// throughput falls after it, or beyond the data as extrapolated.
func claims(f *Fit, m usl.Model, obs []usl.Observation) {
	ns, means := meansByN(obs)
	top := slices.Max(means)
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
		f.NoPeak = analysis.NoPeakFlat
		ceiling(f, m, top)
		return
	}
	if n, x, ok := m.Peak(); ok {
		last := ns[len(ns)-1]
		f.TurnN, f.TurnThroughput = n, x
		if f.Bound > 0 && x > f.Bound {
			f.NoPeak = analysis.NoPeakAboveBound
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
		f.NoPeak, f.Top, f.TopN = analysis.NoPeakNoFall, top, ns[slices.Index(means, top)]
		return
	}
	f.NoPeak = analysis.NoPeakKappaZero
	ceiling(f, m, top)
}

// ceiling sets λ/σ, what an Amdahl curve approaches, up to MaxCeiling
// times top, the most seen; past that NoPeak says so.
func ceiling(f *Fit, m usl.Model, top float64) {
	c, ok := m.Ceiling()
	if !ok || m.Kappa > 0 {
		return
	}
	f.LawCeiling = c
	switch {
	case f.Bound > 0 && c > f.Bound:
		f.CeilingWhy = analysis.CeilingAboveBound
	case c > MaxCeiling*top:
		f.CeilingWhy = analysis.CeilingFar
	default:
		f.Ceiling = c
	}
}

// meansByN returns the distinct N of obs, ascending, and the mean at each.
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

// fitError says why a series could not be fitted: "2 CPU counts (1, 2); a
// fit needs at least 3".
func fitError(err error, noun string) error {
	var few *usl.TooFewPointsError
	if errors.As(err, &few) {
		return fmt.Errorf("%s (%s); a fit needs at least %d", format.Count(len(few.N), noun), usl.FormatNs(few.N), few.Need)
	}
	return err
}

// nounOf names what N counts on the axis by: "CPUs" or "customers".
func nounOf(by string) string {
	if by == ByPar {
		return "customers"
	}
	return "CPUs"
}

// FitAll is Fits, refusing points none of whose series can be fitted,
// saying why rather than as a table of blanks.
func FitAll(points []results.Point, by string) ([]Fit, error) {
	fits, err := Fits(points, by)
	if err != nil {
		return nil, err
	}
	var reasons []string
	for _, f := range fits {
		if f.Fitted() {
			return fits, nil
		}
		reasons = append(reasons, fmt.Sprintf("%s (%s): %s", f.Mode, f.SourceText(), f.Error))
	}
	what := "no series can be fitted against " + nounOf(by)
	same := !slices.ContainsFunc(fits, func(f Fit) bool { return f.Error != fits[0].Error })
	switch {
	case len(fits) == 0:
		return fits, fmt.Errorf("%s: the files hold no series", what)
	case same && len(fits) > 1:
		return fits, fmt.Errorf("%s: each of the %d series has %s", what, len(fits), fits[0].Error)
	case len(reasons) > 3:
		reasons = append(reasons[:3], fmt.Sprintf("and %d more", len(reasons)-3))
	}
	return fits, fmt.Errorf("%s: %s", what, strings.Join(reasons, "; "))
}
