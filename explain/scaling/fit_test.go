package scaling_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// fitPoint returns a closed-loop point of mode at cpus with par customers
// (0: one per CPU) and the given throughput, predicted by the model under
// fifo when src is "model", else measured on the host src.
func fitPoint(src, mode string, cpus, par, rep int, tput float64) results.Point {
	if par == 0 {
		par = cpus
	}
	p := results.Point{Source: results.SourceMeasured, Host: results.Host{Name: src}, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: par}},
		Rep: rep, Throughput: tput, Unit: "lattes/s"}
	if src == results.SourceModel {
		p = results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: par}, Policy: results.Policy{Sched: "fifo"}},
			Rep: rep, Throughput: tput, Unit: "lattes/s"}
	}
	return p
}

// shopPoints is the talk's picture on 1..cpus CPUs, as the model predicts
// it: ideal 250 lattes/s per CPU, locking 250 whatever the CPUs.
func shopPoints(src string, cpus int) []results.Point {
	var ps []results.Point
	for n := 1; n <= cpus; n++ {
		ps = append(ps, fitPoint(src, "ideal", n, 0, 0, 250*float64(n)), fitPoint(src, "locking", n, 0, 0, 250))
	}
	return ps
}

func fitsOf(t *testing.T, points []results.Point, by string) []scaling.Fit {
	t.Helper()
	fits, err := scaling.Fits(points, by)
	if err != nil {
		t.Fatal(err)
	}
	return fits
}

func TestFitsIdealAndLocking(t *testing.T) {
	fits := fitsOf(t, shopPoints(results.SourceModel, 8), scaling.ByCPUs)
	if len(fits) != 2 || fits[0].Mode != "ideal" || fits[1].Mode != "locking" {
		t.Fatalf("fits = %+v; want ideal then locking", fits)
	}
	ideal, locking := fits[0], fits[1]
	for _, f := range fits {
		if !f.Fitted() || f.Source != "model" || f.Sched != "fifo" || !f.Model || f.By != "cpus" || f.Points != 8 || f.Unit != "lattes/s" {
			t.Errorf("%s: %+v; want a fit of the model's 8 points", f.Mode, f)
		}
		if math.Abs(f.Lambda-250) > 1e-6 || f.R2 != 1 || f.Kappa != 0 {
			t.Errorf("%s: λ = %g, R² = %g, κ = %g; want 250, 1, 0", f.Mode, f.Lambda, f.R2, f.Kappa)
		}
		if f.HasPeak() || f.NoPeak == "" {
			t.Errorf("%s: a peak at %g; want none, and why", f.Mode, f.PeakN)
		}
	}
	if ideal.Sigma != 0 || ideal.SerialFraction != 0 || ideal.Ceiling != 0 {
		t.Errorf("ideal: σ = %g, serial fraction %g, ceiling %g; want 0, 0, none", ideal.Sigma, ideal.SerialFraction, ideal.Ceiling)
	}
	if locking.Sigma != 1 || locking.SerialFraction != 1 || math.Abs(locking.Ceiling-250) > 1e-6 {
		t.Errorf("locking: σ = %g, serial fraction %g, ceiling %g; want 1, 1, 250", locking.Sigma, locking.SerialFraction, locking.Ceiling)
	}
	if got := text.PeakText(locking); got != "none: flat from 1 CPU at 250.0 lattes/s" {
		t.Errorf("locking's peak: %q", got)
	}
	if got := text.PeakText(ideal); !strings.HasPrefix(got, "none: κ = 0 and σ = 0") || ideal.Law != "linear" || !ideal.Anchored {
		t.Errorf("ideal's peak: %q", got)
	}
}

// TestFitsMeasuredNoise fits noisy measurements with repetitions: locking
// near σ = 1, ideal near σ = 0, and every repetition an observation.
func TestFitsMeasuredNoise(t *testing.T) {
	var ps []results.Point
	wobble := []float64{-0.01, 0.004, 0.012} // relative, by repetition
	for n := 1; n <= 6; n++ {
		for rep, w := range wobble {
			ps = append(ps,
				fitPoint("laptop", "ideal", n, 0, rep+1, 250*float64(n)*(1+w)),
				fitPoint("laptop", "locking", n, 0, rep+1, 250*(1-w)))
		}
	}
	fits := fitsOf(t, ps, scaling.ByCPUs)
	if len(fits) != 2 {
		t.Fatalf("%d fits, want 2", len(fits))
	}
	ideal, locking := fits[0], fits[1]
	if !ideal.Fitted() || ideal.Sigma > 0.05 || ideal.Kappa > 0.005 {
		t.Errorf("ideal measured: σ = %g, κ = %g (%s); want both near 0", ideal.Sigma, ideal.Kappa, ideal.Error)
	}
	if !locking.Fitted() || math.Abs(locking.Sigma-1) > 0.1 || locking.Kappa > 0.01 {
		t.Errorf("locking measured: σ = %g, κ = %g (%s); want σ near 1, κ near 0", locking.Sigma, locking.Kappa, locking.Error)
	}
	if ideal.Observations != 18 || ideal.Points != 6 || ideal.Source != "laptop" || ideal.Model {
		t.Errorf("ideal: %d observations of %d CPU counts from %q (model %v); want 18 of 6 from laptop", ideal.Observations, ideal.Points, ideal.Source, ideal.Model)
	}
}

func TestFitsTooFewPoints(t *testing.T) {
	fits := fitsOf(t, shopPoints("laptop", 2), scaling.ByCPUs)
	if len(fits) != 2 {
		t.Fatalf("%d fits, want 2", len(fits))
	}
	for _, f := range fits {
		if f.Fitted() || f.Error != "2 CPU counts (1, 2); a fit needs at least 3" {
			t.Errorf("%s: error %q; want it to say plainly that 2 CPU counts are too few", f.Mode, f.Error)
		}
		if f.Sigma != 0 || f.Lambda != 0 || f.HasPeak() || text.PeakText(f) != "-" {
			t.Errorf("%s: unfitted, yet σ = %g, λ = %g, peak %q", f.Mode, f.Sigma, f.Lambda, text.PeakText(f))
		}
		var m map[string]any
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"sigma", "kappa", "lambda", "peak_n", "peak_throughput", "r2", "serial_fraction"} {
			if v, ok := m[k]; !ok || v != nil {
				t.Errorf("%s: JSON %s = %v; want null for a series not fitted:\n%s", f.Mode, k, v, b)
			}
		}
		if m["error"] != f.Error {
			t.Errorf("%s: JSON error = %v", f.Mode, m["error"])
		}
	}
}

// TestFitsJSON checks the JSON fields the issue names, and null for a
// peak that is not there.
func TestFitsJSON(t *testing.T) {
	ps := shopPoints(results.SourceModel, 8)
	// A curve that turns down: σ = 0.1, κ = 0.02, peak at √45 = 6.7 CPUs,
	// and 11 % lower at 12 CPUs.
	for n := 1; n <= 12; n++ {
		x := 300 * float64(n) / (1 + 0.1*float64(n-1) + 0.02*float64(n*(n-1)))
		ps = append(ps, fitPoint(results.SourceModel, "retro", n, 0, 0, x))
	}
	var b strings.Builder
	for _, f := range fitsOf(t, ps, scaling.ByCPUs) {
		line, err := f.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want one per series (3):\n%s", len(lines), b.String())
	}
	var objs []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		for _, k := range []string{"mode", "sigma", "kappa", "lambda", "peak_n", "peak_throughput", "r2"} {
			if _, ok := m[k]; !ok {
				t.Errorf("no %q in %s", k, l)
			}
		}
		objs = append(objs, m)
	}
	if objs[0]["mode"] != "ideal" || objs[0]["peak_n"] != nil || objs[0]["peak_throughput"] != nil || objs[0]["no_peak"] == nil {
		t.Errorf("ideal: want a null peak and why: %s", lines[0])
	}
	retro := objs[2]
	if n, ok := retro["peak_n"].(float64); !ok || math.Abs(n-math.Sqrt(45)) > 1e-3 {
		t.Errorf("retro: peak_n = %v, want %g: %s", retro["peak_n"], math.Sqrt(45), lines[2])
	}
	if retro["ceiling"] != nil || retro["no_peak"] != nil {
		t.Errorf("retro peaks, yet has a ceiling or says it has no peak: %s", lines[2])
	}
	if c, ok := objs[1]["ceiling"].(float64); !ok || math.Abs(c-250) > 1e-6 {
		t.Errorf("locking: ceiling %v, want 250: %s", objs[1]["ceiling"], lines[1])
	}
	if s, k := retro["sigma"].(float64), retro["kappa"].(float64); math.Abs(s-0.1) > 1e-4 || math.Abs(k-0.02) > 1e-5 {
		t.Errorf("retro: σ = %g, κ = %g; want 0.1, 0.02", s, k)
	}
	if strings.Contains(b.String(), `\u`) {
		t.Errorf("JSON escapes what needs no escaping:\n%s", b.String())
	}
}

// TestFitsSeries checks that series are grouped as the report draws them:
// the model apart from measurements, machines apart, loads apart, modes in
// the order they first appear.
func TestFitsSeries(t *testing.T) {
	var ps []results.Point
	ps = append(ps, shopPoints("laptop", 4)...)
	ps = append(ps, shopPoints(results.SourceModel, 4)...)
	ps = append(ps, shopPoints("server", 4)...)
	// locking with 2 customers whatever the CPUs, on the laptop.
	for n := 1; n <= 4; n++ {
		ps = append(ps, fitPoint("laptop", "locking", n, 2, 0, 250))
	}
	fits := fitsOf(t, ps, scaling.ByCPUs)
	var got []string
	for _, f := range fits {
		got = append(got, f.Mode+" "+f.SourceText()+" "+f.LoadText())
	}
	// The laptop's locking at par 2 on 2 CPUs, the second laptop point of
	// locking, is the first of the par=2 series.
	want := []string{
		"ideal laptop par=CPUs", "ideal model (fifo) par=CPUs", "ideal server par=CPUs",
		"locking laptop par=CPUs", "locking laptop par=2", "locking model (fifo) par=CPUs", "locking server par=CPUs",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("series:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range fits {
		// The laptop's locking at par 2 on 2 CPUs belongs to both of its
		// series; each has 4 CPU counts.
		if f.Points != 4 || !f.Fitted() {
			t.Errorf("%s %s %s: %d CPU counts, error %q; want 4, fitted", f.Mode, f.SourceText(), f.LoadText(), f.Points, f.Error)
		}
	}
}

func TestFitsByPar(t *testing.T) {
	var ps []results.Point
	for _, par := range []int{1, 2, 4, 8} {
		ps = append(ps, fitPoint(results.SourceModel, "locking", 4, par, 0, 250))
		ps = append(ps, fitPoint(results.SourceModel, "ideal", 4, par, 0, 250*float64(min(par, 4))))
	}
	fits := fitsOf(t, ps, scaling.ByPar)
	if len(fits) != 2 {
		t.Fatalf("%d fits, want 2", len(fits))
	}
	locking, ideal := fits[0], fits[1]
	if !locking.Fitted() || locking.Sigma != 1 || locking.CPUs != 4 || locking.By != "par" || locking.LoadText() != "cpus=4" {
		t.Errorf("locking by customers: %+v; want σ = 1 on 4 CPUs", locking)
	}
	// ideal stops at 4 customers' worth on 4 CPUs: not a straight line.
	if !ideal.Fitted() || (ideal.Sigma == 0 && ideal.Kappa == 0) {
		t.Errorf("ideal by customers: σ = %g, κ = %g; want a curve that bends", ideal.Sigma, ideal.Kappa)
	}
	if !strings.Contains(text.PeakText(ideal), "customers") && ideal.HasPeak() {
		t.Errorf("peak by customers says %q", text.PeakText(ideal))
	}
	// Against CPUs, the same points have one CPU count.
	fits = fitsOf(t, ps, scaling.ByCPUs)
	for _, f := range fits {
		if f.Fitted() || !strings.HasPrefix(f.Error, "1 CPU count (4)") {
			t.Errorf("%s against CPUs: error %q; want 1 CPU count", f.Mode, f.Error)
		}
	}
	fits = fitsOf(t, shopPoints("laptop", 8), scaling.ByPar)
	if len(fits) != 16 || fits[0].Error != "1 customer count (1); a fit needs at least 3" {
		t.Errorf("a sweep of one customer per CPU, by customers: %d series, first error %q; want 16, each with one customer count", len(fits), fits[0].Error)
	}
}

func TestFitsUnknownBy(t *testing.T) {
	_, err := scaling.Fits(shopPoints("laptop", 4), "mode")
	if err == nil || !strings.Contains(err.Error(), `"mode"`) || !strings.Contains(err.Error(), "cpus, par") {
		t.Errorf("err = %v; want one naming the axis and what is accepted", err)
	}
}

func TestFitPeakBeyondData(t *testing.T) {
	var ps []results.Point
	// σ = 0.02, κ = 0.001: the peak is at √980 = 31 CPUs, past the 8
	// measured.
	for n := 1; n <= 8; n++ {
		ps = append(ps, fitPoint("laptop", "multi-2", n, 0, 0, 250*float64(n)/(1+0.02*float64(n-1)+0.001*float64(n*(n-1)))))
	}
	f := fitsOf(t, ps, scaling.ByCPUs)[0]
	if !f.HasPeak() || math.Abs(f.PeakN-math.Sqrt(980)) > 0.5 {
		t.Fatalf("peak at %g (has %v); want about 31.3", f.PeakN, f.HasPeak())
	}
	if got := text.PeakText(f); !strings.Contains(got, "lattes/s at 31.3 CPUs, extrapolated beyond the data (up to 8)") || !f.Extrapolated {
		t.Errorf("PeakText = %q", got)
	}
}

// The case: the fifo model's finelocking is flat at 1000 from 4
// to 16 CPUs. The fit claims no peak and says where it is flat; λ is the
// throughput at 1 CPU, 250, not a fitted 291.
func TestFitFlatSeries(t *testing.T) {
	var ps []results.Point
	for n := 1; n <= 16; n++ {
		ps = append(ps, fitPoint(results.SourceModel, "finelocking", n, 0, 0, 250*float64(min(n, 4))))
	}
	f := fitsOf(t, ps, scaling.ByCPUs)[0]
	if f.HasPeak() || f.FlatFrom != 4 || f.FlatAt != 1000 || f.Lambda != 250 || !f.Anchored {
		t.Errorf("finelocking 1–16: peak %v at %g, flat from %d at %g, λ = %g; want no peak, flat from 4 at 1000, λ = 250", f.HasPeak(), f.PeakN, f.FlatFrom, f.FlatAt, f.Lambda)
	}
	if got := text.PeakText(f); got != "none: flat from 4 CPUs at 1000.0 lattes/s" {
		t.Errorf("PeakText = %q", got)
	}
}

// A series that grows nearly in proportion has a ceiling far past the
// data: it is not printed.
func TestFitCeilingNotPastTheData(t *testing.T) {
	var ps []results.Point
	for n := 1; n <= 8; n++ {
		ps = append(ps, fitPoint(results.SourceModel, "multipipe-2", n, 0, 0, 250*float64(n)/(1+1e-5*float64(n-1))))
	}
	f := fitsOf(t, ps, scaling.ByCPUs)[0]
	if f.Ceiling > 100*2000 || f.HasPeak() {
		t.Errorf("ceiling %g, peak %v; want none printed", f.Ceiling, f.HasPeak())
	}
}

// κ is 0 unless it lowers the AIC by more than 2: noisy measurements of a
// curve that only bends (Amdahl's) get no κ and no invented peak.
func TestFitKappaOnlyWhereSignificant(t *testing.T) {
	var ps []results.Point
	wobble := []float64{-0.015, 0.01, 0.004}
	for n := 1; n <= 6; n++ {
		for rep, w := range wobble {
			x := 250 * float64(n) / (1 + 0.2*float64(n-1))
			ps = append(ps, fitPoint("laptop", "multi-2", n, 0, rep+1, x*(1+w*float64(1+n%2))))
		}
	}
	f := fitsOf(t, ps, scaling.ByCPUs)[0]
	if f.Kappa != 0 || f.HasPeak() || f.Law != "amdahl" {
		t.Errorf("κ = %g, law %s, peak %v at %g; want κ = 0 by Amdahl's law and no peak", f.Kappa, f.Law, f.HasPeak(), f.PeakN)
	}
}

// ParSeries: a default sweep (one customer per CPU) and a sweep with 2
// customers whatever the CPUs are two series; the point of 2 customers on
// 2 CPUs is in both, and a point of Par equal to CPUs whose Par was also
// run fixed elsewhere is only in the fixed one.
func TestParSeries(t *testing.T) {
	var points []results.Point
	for _, n := range []int{1, 2, 4} {
		points = append(points, fitPoint("box", "ideal", n, 0, 0, 100), fitPoint("box", "ideal", n, 2, 0, 100))
	}
	points = append(points, fitPoint("box", "locking", 1, 3, 0, 100), fitPoint("box", "locking", 3, 3, 0, 100))
	type key struct {
		mode string
		par  int // 0: one per CPU
	}
	of := analysis.ParSeries(points, func(p results.Point) key { return key{p.Mode, 0} },
		func(k key, par int) key { k.par = par; return k })
	for _, c := range []struct {
		p    results.Point
		want []key
	}{
		{points[0], []key{{"ideal", 0}}},               // 1 customer on 1 CPU
		{points[1], []key{{"ideal", 2}}},               // 2 on 1
		{points[2], []key{{"ideal", 2}, {"ideal", 0}}}, // 2 on 2: both sweeps
		{points[4], []key{{"ideal", 0}}},               // 4 on 4
		{points[7], []key{{"locking", 3}}},             // 3 on 3, fixed at 3 on 1 CPU too
	} {
		if got := of(c.p); !slices.Equal(got, c.want) {
			t.Errorf("%s, %d customers on %d CPUs: series %v, want %v", c.p.Mode, c.p.Par, c.p.CPUs, got, c.want)
		}
	}
}

// TestFitClaimsNothingAboveTheBound: a series whose law approaches a
// ceiling far above the design's structural bound (two grinders: 2000)
// gives no ceiling, and says where the law would go and that throughput
// cannot pass the bound; without a bound the same series keeps its
// ceiling.
func TestFitClaimsNothingAboveTheBound(t *testing.T) {
	var bounded, free []results.Point
	for n := 1; n <= 6; n++ {
		x := 250 * float64(n) / (1 + 0.02*float64(n-1))
		p := fitPoint(results.SourceModel, "multi-2", n, 0, 0, x)
		free = append(free, p)
		p.Bounds = &results.Bounds{Structural: 2000}
		bounded = append(bounded, p)
	}
	f := fitsOf(t, bounded, scaling.ByCPUs)[0]
	if f.Bound != 2000 || f.Ceiling != 0 || f.HasPeak() || !strings.Contains(text.NoPeakText(f), "above the structural bound of 2000.0 lattes/s, which throughput cannot pass") {
		t.Errorf("bounded: bound %v, ceiling %v, peak %v, %q", f.Bound, f.Ceiling, f.HasPeak(), text.NoPeakText(f))
	}
	if c := fitsOf(t, free, scaling.ByCPUs)[0].Ceiling; c <= 2000 {
		t.Errorf("unbounded series: ceiling %v, want the law's λ/σ, far above 2000", c)
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"ceiling":null`) || !strings.Contains(string(data), `"bound":2000`) {
		t.Errorf("JSON %s", data)
	}
}

// TestLinearFitKeepsItsBound: a series that grows in proportion does not
// grow "without bound" where its points say a structural bound.
func TestLinearFitKeepsItsBound(t *testing.T) {
	var ps []results.Point
	for n := 1; n <= 4; n++ {
		p := fitPoint(results.SourceModel, "finelocking", n, 0, 0, 250*float64(n))
		p.Bounds = &results.Bounds{Structural: 1000}
		ps = append(ps, p)
	}
	f := fitsOf(t, ps, scaling.ByCPUs)[0]
	if strings.Contains(text.NoPeakText(f), "without bound") || !strings.Contains(text.NoPeakText(f), "cannot pass the structural bound of 1000.0 lattes/s") {
		t.Errorf("%q", text.NoPeakText(f))
	}
}
