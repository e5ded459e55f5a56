package usl

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// curve returns the law's throughput at N = 1..n, each repeated reps
// times, with relative noise of up to ±noise from a fixed seed.
func curve(sigma, kappa, lambda float64, n, reps int, noise float64) []Observation {
	truth := Model{Sigma: sigma, Kappa: kappa, Lambda: lambda}
	rng := rand.New(rand.NewPCG(1, 2))
	var obs []Observation
	for N := 1; N <= n; N++ {
		for range reps {
			x := truth.Predict(float64(N)) * (1 + noise*(2*rng.Float64()-1))
			obs = append(obs, Observation{N: float64(N), X: x})
		}
	}
	return obs
}

// near reports whether got is within tol of want, absolutely.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestFitRecoversKnownParameters(t *testing.T) {
	cases := []struct {
		name                 string
		sigma, kappa, lambda float64
	}{
		{"contention and coherency", 0.05, 0.002, 100},
		{"contention only", 0.2, 0, 250},
		{"coherency only", 0, 0.01, 1000},
		{"strong coherency", 0.3, 0.05, 40},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustFit(t, curve(c.sigma, c.kappa, c.lambda, 32, 1, 0))
			if !near(m.Sigma, c.sigma, 1e-5) || !near(m.Kappa, c.kappa, 1e-6) || !near(m.Lambda, c.lambda, 1e-4*c.lambda) {
				t.Errorf("fitted σ = %g, κ = %g, λ = %g; want %g, %g, %g", m.Sigma, m.Kappa, m.Lambda, c.sigma, c.kappa, c.lambda)
			}
			if m.R2 < 1-1e-9 || m.RMSE > 1e-4*c.lambda {
				t.Errorf("exact data: R² = %g, RMSE = %g; want 1 and 0", m.R2, m.RMSE)
			}
		})
	}
}

func TestFitWithNoise(t *testing.T) {
	// 2 % noise, three repetitions at each N.
	obs := curve(0.05, 0.002, 100, 24, 3, 0.02)
	m := mustFit(t, obs)
	if !near(m.Sigma, 0.05, 0.015) || !near(m.Kappa, 0.002, 0.0005) || !near(m.Lambda, 100, 3) {
		t.Errorf("fitted σ = %g, κ = %g, λ = %g; want about 0.05, 0.002, 100", m.Sigma, m.Kappa, m.Lambda)
	}
	if m.R2 < 0.9 || m.R2 >= 1 {
		t.Errorf("R² = %g; want high but below 1 with noise", m.R2)
	}
	// The fit is a least-squares minimum: nudging any parameter makes it
	// worse.
	sse := func(m Model) float64 {
		s := 0.0
		for _, o := range obs {
			r := o.X - m.Predict(o.N)
			s += r * r
		}
		return s
	}
	best := sse(m)
	for _, d := range []Model{{Sigma: 0.003}, {Sigma: -0.003}, {Kappa: 0.0001}, {Kappa: -0.0001}, {Lambda: 0.5}, {Lambda: -0.5}} {
		n := Model{Sigma: m.Sigma + d.Sigma, Kappa: m.Kappa + d.Kappa, Lambda: m.Lambda + d.Lambda}
		if sse(n) < best {
			t.Errorf("σ = %g, κ = %g, λ = %g fits better than the fit's %g, %g, %g", n.Sigma, n.Kappa, n.Lambda, m.Sigma, m.Kappa, m.Lambda)
		}
	}
}

// TestFitFlat is locking's curve: one lock around the whole kitchen, 250
// lattes/s however many CPUs.
func TestFitFlat(t *testing.T) {
	m := mustFit(t, curve(1, 0, 250, 8, 1, 0))
	if m.Sigma != 1 || m.Kappa != 0 || !near(m.Lambda, 250, 1e-9) || m.R2 != 1 {
		t.Errorf("flat line: σ = %g, κ = %g, λ = %g, R² = %g; want 1, 0, 250, 1", m.Sigma, m.Kappa, m.Lambda, m.R2)
	}
	if n, x, ok := m.Peak(); ok {
		t.Errorf("flat line has a peak at %g (%g); want none", n, x)
	}
	if c, ok := m.Ceiling(); !ok || !near(c, 250, 1e-9) {
		t.Errorf("flat line: ceiling %g, %v; want 250", c, ok)
	}
	a, err := FitAmdahl(curve(1, 0, 250, 8, 1, 0))
	if err != nil || a.Sigma != 1 || a.Kappa != 0 {
		t.Errorf("Amdahl on a flat line: σ = %g, κ = %g, err %v; want serial fraction 1", a.Sigma, a.Kappa, err)
	}
}

// TestFitFlatWithNoise is locking measured: 250 ± 1 %.
func TestFitFlatWithNoise(t *testing.T) {
	m := mustFit(t, curve(1, 0, 250, 8, 3, 0.01))
	if !near(m.Sigma, 1, 0.1) || m.Kappa > 0.01 || !near(m.Lambda, 250, 5) {
		t.Errorf("noisy flat line: σ = %g, κ = %g, λ = %g; want about 1, 0, 250", m.Sigma, m.Kappa, m.Lambda)
	}
}

// TestFitLinear is ideal's curve: 250 lattes/s per CPU.
func TestFitLinear(t *testing.T) {
	m := mustFit(t, curve(0, 0, 250, 8, 1, 0))
	if m.Sigma != 0 || m.Kappa != 0 || !near(m.Lambda, 250, 1e-9) || m.R2 != 1 {
		t.Errorf("straight line: σ = %g, κ = %g, λ = %g, R² = %g; want 0, 0, 250, 1", m.Sigma, m.Kappa, m.Lambda, m.R2)
	}
	if _, _, ok := m.Peak(); ok {
		t.Error("straight line has a peak; want none")
	}
	if c, ok := m.Ceiling(); ok {
		t.Errorf("straight line has a ceiling %g; want none", c)
	}
	if got := m.Predict(100); !near(got, 25000, 1e-6) {
		t.Errorf("Predict(100) = %g, want 25000", got)
	}
}

func TestFitRetrogradePeak(t *testing.T) {
	// σ = 0.1, κ = 0.01: the peak is at √(0.9/0.01) = 9.487 CPUs.
	m := mustFit(t, curve(0.1, 0.01, 1000, 20, 1, 0))
	n, x, ok := m.Peak()
	want := Model{Sigma: 0.1, Kappa: 0.01, Lambda: 1000}
	if !ok || !near(n, math.Sqrt(90), 1e-3) || !near(x, want.Predict(math.Sqrt(90)), 1e-2) {
		t.Errorf("peak at %g, %g (ok %v); want %g, %g", n, x, ok, math.Sqrt(90), want.Predict(math.Sqrt(90)))
	}
	// No N does better than the peak.
	for N := 1.0; N <= 20; N += 0.25 {
		if m.Predict(N) > x+1e-9 {
			t.Errorf("X(%g) = %g exceeds the peak %g", N, m.Predict(N), x)
		}
	}
}

func TestPeakAndCeiling(t *testing.T) {
	cases := []struct {
		m       Model
		peak    float64 // 0: none
		ceiling float64 // 0: none
	}{
		{Model{Sigma: 0.5, Kappa: 0, Lambda: 100}, 0, 200},
		{Model{Sigma: 0, Kappa: 0, Lambda: 100}, 0, 0},
		{Model{Sigma: 1, Kappa: 0, Lambda: 100}, 0, 100},
		{Model{Sigma: 2, Kappa: 0, Lambda: 100}, 1, 50}, // falls from the start
		{Model{Sigma: 0, Kappa: 0.04, Lambda: 100}, 5, 0},
		{Model{Sigma: 0.5, Kappa: 0.8, Lambda: 100}, 1, 200}, // √(0.5/0.8) < 1
		{Model{Sigma: 1.5, Kappa: 0.01, Lambda: 100}, 1, 100.0 / 1.5},
	}
	for _, c := range cases {
		n, x, ok := c.m.Peak()
		if ok != (c.peak != 0) || !near(n, c.peak, 1e-12) || (ok && x != c.m.Predict(n)) {
			t.Errorf("%+v: Peak() = %g, %g, %v; want n = %g", c.m, n, x, ok, c.peak)
		}
		ceil, ok := c.m.Ceiling()
		if ok != (c.ceiling != 0) || !near(ceil, c.ceiling, 1e-12) {
			t.Errorf("%+v: Ceiling() = %g, %v; want %g", c.m, ceil, ok, c.ceiling)
		}
	}
}

func TestFitAmdahl(t *testing.T) {
	m, err := FitAmdahl(curve(0.2, 0, 250, 8, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !near(m.Sigma, 0.2, 1e-6) || m.Kappa != 0 || !near(m.Lambda, 250, 1e-3) {
		t.Errorf("Amdahl: σ = %g, κ = %g, λ = %g; want 0.2, 0, 250", m.Sigma, m.Kappa, m.Lambda)
	}
	// Two CPU counts are enough for Amdahl's two parameters.
	m, err = FitAmdahl([]Observation{{1, 250}, {2, 400}})
	if err != nil {
		t.Fatal(err)
	}
	// 400 = 250·2/(1+σ): σ = 0.25.
	if !near(m.Sigma, 0.25, 1e-6) || m.Kappa != 0 {
		t.Errorf("Amdahl from 1 and 2 CPUs: σ = %g, κ = %g; want 0.25, 0", m.Sigma, m.Kappa)
	}
	// On a retrograde curve κ = 0 still: Amdahl cannot turn down.
	m, err = FitAmdahl(curve(0.1, 0.01, 1000, 20, 1, 0))
	if err != nil || m.Kappa != 0 || m.Sigma <= 0.1 {
		t.Errorf("Amdahl on a retrograde curve: σ = %g, κ = %g, err %v; want κ = 0 and σ above the true 0.1", m.Sigma, m.Kappa, err)
	}
}

func TestFitTooFewPoints(t *testing.T) {
	cases := []struct {
		name string
		fit  func([]Observation) (Model, error)
		obs  []Observation
		ns   []float64
		need int
		text string
	}{
		{"none", fitUniversal, nil, nil, 3, "0 distinct N (none); a fit needs at least 3"},
		{"two N repeated", fitUniversal, []Observation{{1, 250}, {2, 500}, {1, 251}, {2, 499}}, []float64{1, 2}, 3, "2 distinct N (1, 2); a fit needs at least 3"},
		{"Amdahl one N", FitAmdahl, []Observation{{4, 250}, {4, 260}}, []float64{4}, 2, "1 distinct N (4); a fit needs at least 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.fit(c.obs)
			var tf *TooFewPointsError
			if !errors.As(err, &tf) || len(tf.N) != len(c.ns) || tf.Need != c.need {
				t.Fatalf("err = %#v; want N = %v, Need = %d", err, c.ns, c.need)
			}
			for i := range c.ns {
				if tf.N[i] != c.ns[i] {
					t.Errorf("N = %v, want %v", tf.N, c.ns)
				}
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %q does not say %q", err, c.text)
			}
		})
	}
}

func TestFitBadValues(t *testing.T) {
	good := []Observation{{1, 250}, {2, 500}, {3, 750}}
	cases := []struct {
		name string
		bad  Observation
		text string
	}{
		{"N below 1", Observation{0, 100}, "observation 4: N = 0; want a finite N ≥ 1"},
		{"negative N", Observation{-2, 100}, "N = -2"},
		{"NaN N", Observation{math.NaN(), 100}, "N = NaN"},
		{"infinite N", Observation{math.Inf(1), 100}, "N = +Inf"},
		{"negative X", Observation{4, -1}, "observation 4 (N = 4): X = -1; want a finite X ≥ 0"},
		{"NaN X", Observation{4, math.NaN()}, "X = NaN"},
		{"infinite X", Observation{4, math.Inf(1)}, "X = +Inf"},
	}
	for _, c := range cases {
		for name, fit := range map[string]func([]Observation) (Model, error){"Fit": fitUniversal, "FitAmdahl": FitAmdahl} {
			_, err := fit(append(good[:len(good):len(good)], c.bad))
			if err == nil || !strings.Contains(err.Error(), c.text) || errors.As(err, new(*TooFewPointsError)) {
				t.Errorf("%s, %s: err = %v; want one saying %q", name, c.name, err, c.text)
			}
		}
	}
	_, err := fitUniversal([]Observation{{1, 0}, {2, 0}, {3, 0}})
	if err == nil || !strings.Contains(err.Error(), "every throughput is 0") {
		t.Errorf("all zero: err = %v; want one saying every throughput is 0", err)
	}
}

func TestFitIsDeterministic(t *testing.T) {
	obs := curve(0.05, 0.002, 100, 16, 2, 0.03)
	a := mustFit(t, obs)
	for range 3 {
		b, _ := fitUniversal(obs)
		if a != b {
			t.Fatalf("two fits of the same data differ: %+v, %+v", a, b)
		}
	}
}

func TestSelect(t *testing.T) {
	for _, c := range []struct {
		name                 string
		sigma, kappa, lambda float64
		noise                float64
		want                 Law
	}{
		{"straight line", 0, 0, 250, 0, Linear},
		{"flat", 1, 0, 250, 0, Amdahl},
		{"bends", 0.2, 0, 100, 0, Amdahl},
		{"turns down", 0.05, 0.01, 100, 0, Universal},
		{"noisy line", 0, 0, 250, 0.01, Linear},
	} {
		m, err := Select(curve(c.sigma, c.kappa, c.lambda, 12, 2, c.noise), 0)
		if err != nil {
			t.Fatal(err)
		}
		if m.Law != c.want {
			t.Errorf("%s: law %s (σ = %g, κ = %g, AIC %g); want %s", c.name, m.Law, m.Sigma, m.Kappa, m.AIC, c.want)
		}
		if c.want != Universal && m.Kappa != 0 {
			t.Errorf("%s: κ = %g, want 0", c.name, m.Kappa)
		}
	}
	// Anchored: λ is what was given, not fitted.
	m, err := Select(curve(0.2, 0, 100, 8, 1, 0), 90)
	if err != nil {
		t.Fatal(err)
	}
	if m.Lambda != 90 || !m.Anchored {
		t.Errorf("anchored at 90: λ = %g (anchored %v)", m.Lambda, m.Anchored)
	}
	if _, err := Select(curve(0, 0, 1, 2, 1, 0), 0); !errors.As(err, new(*TooFewPointsError)) {
		t.Errorf("two N: err %v", err)
	}
}

// mustFit fits obs, failing t if it cannot.
func mustFit(t *testing.T, obs []Observation) Model {
	t.Helper()
	m, err := fitUniversal(obs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fitUniversal fits the Universal Scalability Law alone, as Select fits it.
func fitUniversal(obs []Observation) (Model, error) { return fit(obs, 3, Universal.shapes(), 0) }
