// Package usl fits Neil Gunther's Universal Scalability Law to
// observations of throughput X against a concurrency N (CPUs, customers):
//
//	X(N) = λN / (1 + σ(N−1) + κN(N−1))
//
// λ is the throughput of one; σ, contention, the serialized share of the
// work, bends the curve flat toward λ/σ (Amdahl's law, κ = 0); κ,
// coherency, the cost of every pair keeping each other up to date, bends
// it back down after a peak at N* = √((1−σ)/κ). Fits are nonlinear least
// squares (gonum's Nelder–Mead) over plain (N, X) pairs.
package usl

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/optimize"

	"github.com/brewput/brewput/internal/base/collect"
)

// Observation is one measurement: throughput X at concurrency N.
type Observation struct {
	N, X float64
}

// Model is a fitted Universal Scalability Law, with how well it fits.
type Model struct {
	// Sigma (σ ≥ 0), Kappa (κ ≥ 0) and Lambda (λ > 0) are the law's.
	Sigma, Kappa, Lambda float64
	// R2 is 1 − SSres/SStot, the share of the throughput's variation the
	// curve explains; without variation, 1 if the curve meets every
	// observation, else 0.
	R2 float64
	// RMSE is the root mean square residual, in the throughput's unit.
	RMSE float64
	// Law is the law Select chose, "" for FitAmdahl; AIC its Akaike
	// information criterion (λ counts unless Anchored, fixed).
	Law      Law
	AIC      float64
	Anchored bool
}

// Law is one of the laws Select chooses between.
type Law string

// The laws, simplest first.
const (
	Linear    Law = "linear"    // X = λN
	Amdahl    Law = "amdahl"    // X = λN / (1 + σ(N−1))
	Universal Law = "universal" // X = λN / (1 + σ(N−1) + κN(N−1))
)

// Significant is how much lower a law's AIC must be than a simpler law's
// for its extra parameter to count: 2, "substantial support".
const Significant = 2.0

// Select fits the linear law, Amdahl's and the Universal Scalability Law
// to obs and returns the simplest one whose AIC no other lowers by more
// than Significant. With anchor > 0, λ is fixed at anchor (the throughput
// measured at one). It needs three distinct N (else a *TooFewPointsError),
// each N ≥ 1 and X ≥ 0 finite, and some X above 0.
func Select(obs []Observation, anchor float64) (Model, error) {
	var best Model
	for i, law := range []Law{Linear, Amdahl, Universal} {
		shapes := law.shapes()
		m, err := fit(obs, 3, shapes, anchor)
		if err != nil {
			return Model{}, err
		}
		k := shapes[len(shapes)-1].free()
		if anchor <= 0 {
			k++ // λ
		}
		m.Law, m.Anchored = law, anchor > 0
		m.AIC = aic(obs, m.RMSE, k)
		if i == 0 || m.AIC < best.AIC-Significant {
			best = m
		}
	}
	return best, nil
}

// aic is n·ln(RSS/n) + 2k, with the mean squared residual floored at a
// millionth of the mean throughput, squared: data a law meets exactly
// give every such law the same score, and the fewer parameters win.
func aic(obs []Observation, rmse float64, k int) float64 {
	mean := meanX(obs)
	mse := max(rmse*rmse, (1e-6*mean)*(1e-6*mean), 1e-300)
	return float64(len(obs))*math.Log(mse) + 2*float64(k)
}

// TooFewPointsError is what a fit returns for fewer distinct N than the
// law has parameters: the distinct N, ascending, and how many it needs.
type TooFewPointsError struct {
	N    []float64
	Need int
}

func (e *TooFewPointsError) Error() string {
	return fmt.Sprintf("too few points to fit: %d distinct N (%s); a fit needs at least %d", len(e.N), FormatNs(e.N), e.Need)
}

// FormatNs lists N values for people, "1, 2, 4", or "none".
func FormatNs(ns []float64) string {
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(collect.Mapped(ns, func(n float64) string { return strconv.FormatFloat(n, 'g', -1, 64) }), ", ")
}

// Predict returns the model's throughput at concurrency n (n ≥ 1).
func (m Model) Predict(n float64) float64 {
	return m.Lambda * n / (1 + m.Sigma*(n-1) + m.Kappa*n*(n-1))
}

// Peak returns the concurrency n ≥ 1 where the throughput is highest, and
// that throughput; ok is false with κ = 0 and σ ≤ 1, where the throughput
// rises for ever (toward Ceiling) or, σ = 1, stays flat.
func (m Model) Peak() (n, x float64, ok bool) {
	switch {
	case m.Kappa > 0 && m.Sigma < 1:
		n = max(1, math.Sqrt((1-m.Sigma)/m.Kappa))
	case m.Kappa > 0 || m.Sigma > 1:
		n = 1
	default:
		return 0, 0, false
	}
	return n, m.Predict(n), true
}

// Ceiling returns λ/σ, the throughput Amdahl's law approaches as N grows;
// ok is false for σ = 0. With κ > 0 the curve turns down before it.
func (m Model) Ceiling() (x float64, ok bool) {
	if m.Sigma <= 0 {
		return 0, false
	}
	return m.Lambda / m.Sigma, true
}

// FitAmdahl fits Amdahl's law, whose σ is the serial fraction, under σ ≥ 0
// and λ > 0; it needs two distinct N, and observations as Select's.
func FitAmdahl(obs []Observation) (Model, error) { return fit(obs, 2, Amdahl.shapes(), 0) }

// shape is a family of curves to fit: each of σ and κ either free (≥ 0)
// or fixed at the value given.
type shape struct {
	freeSigma, freeKappa bool
	sigma, kappa         float64
}

// shapes are the law's shapes, simplest first, the law itself last.
func (l Law) shapes() []shape {
	amdahl := []shape{{}, {sigma: 1}, {freeSigma: true}}
	switch l {
	case Linear:
		return []shape{{}}
	case Amdahl:
		return amdahl
	}
	return append(amdahl, shape{freeKappa: true}, shape{sigma: 1, freeKappa: true}, shape{freeSigma: true, freeKappa: true})
}

func (s shape) free() int {
	n := 0
	if s.freeSigma {
		n++
	}
	if s.freeKappa {
		n++
	}
	return n
}

// Tolerances of the choice between shapes: a simpler shape is taken when
// its sum of squared residuals is within relTol of the best's, plus
// absTol of Σ X² for data fitted exactly.
const (
	relTol = 1e-6
	absTol = 1e-12
)

// fit checks obs, fits each shape, and keeps the simplest whose fit is as
// good as the best's, so that a parameter the data do not need is exactly
// 0 (or σ 1 for a flat line) and Peak and Ceiling tell the shape truly; λ
// is fixed at lambda where positive.
func fit(obs []Observation, need int, shapes []shape, lambda float64) (Model, error) {
	var ns []float64
	sumX2 := 0.0
	for i, o := range obs {
		switch {
		case math.IsNaN(o.N) || math.IsInf(o.N, 0) || o.N < 1:
			return Model{}, fmt.Errorf("observation %d: N = %g; want a finite N ≥ 1", i+1, o.N)
		case math.IsNaN(o.X) || math.IsInf(o.X, 0) || o.X < 0:
			return Model{}, fmt.Errorf("observation %d (N = %g): X = %g; want a finite X ≥ 0", i+1, o.N, o.X)
		}
		if !slices.Contains(ns, o.N) {
			ns = append(ns, o.N)
		}
		sumX2 += o.X * o.X
	}
	slices.Sort(ns)
	if len(ns) < need {
		return Model{}, &TooFewPointsError{N: ns, Need: need}
	}
	if sumX2 == 0 {
		return Model{}, errors.New("every throughput is 0: there is no curve to fit")
	}

	p := problem{obs: obs, sumX2: sumX2, lambda: lambda}
	type result struct{ sigma, kappa, ss float64 }
	results := make([]result, len(shapes))
	best := math.Inf(1)
	for i, s := range shapes {
		sigma, kappa := p.solve(s)
		ss, _ := p.residuals(sigma, kappa)
		results[i] = result{sigma, kappa, ss}
		best = min(best, ss)
	}
	// The shapes come simplest first, and the best one passes.
	chosen := results[slices.IndexFunc(results, func(r result) bool { return r.ss <= best*(1+relTol)+absTol*sumX2 })]

	ss, lambda := p.residuals(chosen.sigma, chosen.kappa)
	m := Model{Sigma: chosen.sigma, Kappa: chosen.kappa, Lambda: lambda,
		RMSE: math.Sqrt(ss / float64(len(obs)))}
	mean := meanX(obs)
	sstot := 0.0
	for _, o := range obs {
		sstot += (o.X - mean) * (o.X - mean)
	}
	switch {
	case sstot > absTol*sumX2:
		m.R2 = 1 - ss/sstot
	case ss <= absTol*sumX2:
		m.R2 = 1 // no variation, and the curve meets every point
	}
	return m, nil
}

// problem is the least-squares problem of one set of observations.
type problem struct {
	obs    []Observation
	sumX2  float64 // Σ X², to make the objective scale-free
	lambda float64 // λ when fixed (anchored); 0 to fit it
}

// residuals returns the sum of squared residuals of the best curve with
// σ and κ, and its λ: the curve is linear in λ, X = λ·g(N), so the best
// λ is ΣXg / Σg² and the optimizer searches σ and κ alone.
func (p problem) residuals(sigma, kappa float64) (ss, lambda float64) {
	var xg, gg float64
	for _, o := range p.obs {
		g := o.N / (1 + sigma*(o.N-1) + kappa*o.N*(o.N-1))
		xg += o.X * g
		gg += g * g
	}
	lambda = xg / gg
	if p.lambda > 0 {
		lambda = p.lambda
	}
	for _, o := range p.obs {
		r := o.X - lambda*o.N/(1+sigma*(o.N-1)+kappa*o.N*(o.N-1))
		ss += r * r
	}
	return ss, lambda
}

// solve returns the σ and κ of shape s that fit best: the free ones by
// Nelder–Mead from the best of a grid and the linearized fit, restarted
// once (its simplex can collapse early), searching √σ and √κ so that they
// stay at or above 0.
func (p problem) solve(s shape) (sigma, kappa float64) {
	if s.free() == 0 {
		return s.sigma, s.kappa
	}
	// A rough logarithmic grid over the plausible ranges starts the search
	// near the best basin.
	sigmas, kappas := []float64{s.sigma}, []float64{s.kappa}
	if s.freeSigma {
		sigmas = []float64{0, 0.01, 0.03, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9, 1, 1.3, 2}
	}
	if s.freeKappa {
		kappas = []float64{0, 1e-6, 1e-5, 1e-4, 3e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1, 0.3, 1}
	}
	type start struct{ sigma, kappa float64 }
	x0, f0 := start{}, math.Inf(1)
	try := func(st start) {
		if ss, _ := p.residuals(st.sigma, st.kappa); ss < f0 {
			x0, f0 = st, ss
		}
	}
	for _, sg := range sigmas {
		for _, k := range kappas {
			try(start{sg, k})
		}
	}
	ls, lk := p.linearized()
	if !s.freeSigma {
		ls = s.sigma
	}
	if !s.freeKappa {
		lk = s.kappa
	}
	try(start{ls, lk})

	// params maps the search's variables to σ and κ.
	params := func(x []float64) (sigma, kappa float64) {
		sigma, kappa, i := s.sigma, s.kappa, 0
		if s.freeSigma {
			sigma, i = x[i]*x[i], i+1
		}
		if s.freeKappa {
			kappa = x[i] * x[i]
		}
		return sigma, kappa
	}
	var x []float64
	if s.freeSigma {
		x = append(x, math.Sqrt(x0.sigma))
	}
	if s.freeKappa {
		x = append(x, math.Sqrt(x0.kappa))
	}
	objective := func(x []float64) float64 {
		ss, _ := p.residuals(params(x))
		return ss / p.sumX2
	}
	for range 2 {
		x = nelderMead(objective, x)
	}
	return params(x)
}

// nelderMead minimizes f from x0 with gonum's Nelder–Mead, and returns
// where it got to, or x0 if it got nowhere better.
func nelderMead(f func([]float64) float64, x0 []float64) []float64 {
	settings := &optimize.Settings{
		// f is scaled to [0, 1]: stop once 50 steps improve it by no
		// more than rounding.
		Converger:       &optimize.FunctionConverge{Absolute: 1e-15, Relative: 1e-12, Iterations: 50},
		MajorIterations: 20000,
	}
	res, err := optimize.Minimize(optimize.Problem{Func: f}, x0, settings, &optimize.NelderMead{})
	// The iteration limit still leaves the best point found.
	if res == nil || (err != nil && res.Status != optimize.IterationLimit) || !(res.F <= f(x0)) {
		return x0
	}
	return res.X
}

// linearized returns a rough σ and κ to seed the search: with λ from the
// smallest N, λN/X − 1 = σ(N−1) + κN(N−1) fitted by least squares without
// intercept (X = 0 left out), clamped at 0.
func (p problem) linearized() (sigma, kappa float64) {
	nmin := math.Inf(1)
	for _, o := range p.obs {
		nmin = min(nmin, o.N)
	}
	var sum float64
	var count int
	for _, o := range p.obs {
		if o.N == nmin {
			sum += o.X
			count++
		}
	}
	lambda := sum / float64(count) / nmin
	// Normal equations of y = σa + κb, a = N−1, b = N(N−1).
	var aa, ab, bb, ay, by float64
	for _, o := range p.obs {
		if o.X <= 0 {
			continue
		}
		a, b := o.N-1, o.N*(o.N-1)
		y := lambda*o.N/o.X - 1
		aa, ab, bb, ay, by = aa+a*a, ab+a*b, bb+b*b, ay+a*y, by+b*y
	}
	det := aa*bb - ab*ab
	if det == 0 || lambda <= 0 {
		return 0, 0
	}
	sigma = (ay*bb - by*ab) / det
	kappa = (aa*by - ab*ay) / det
	if math.IsNaN(sigma) || math.IsNaN(kappa) {
		return 0, 0
	}
	return max(sigma, 0), max(kappa, 0)
}

func meanX(obs []Observation) float64 {
	sum := 0.0
	for _, o := range obs {
		sum += o.X
	}
	return sum / float64(len(obs))
}
