package why

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// stretches makes an experiment's runs: base the variant's throughput as
// it is, each part's runs the base less its cost in that round.
func stretches(base []float64, parts map[string][]float64, parallel map[string]float64) *Stretches {
	s := &Stretches{Study: "cache", Variant: "mutex-write", CPUs: 2, Frac: 0.1, Unit: "ops/s"}
	for _, b := range base {
		s.Base = append(s.Base, results.Point{Throughput: b})
	}
	for _, name := range []string{"the cache mutex", "the work outside every meter"} {
		e := Stretched{Name: name, Parallel: parallel[name]}
		if name == "the cache mutex" {
			e.Group, e.Kind, e.Members = "cache", "mutex", 1
		}
		for r, c := range parts[name] {
			e.Points = append(e.Points, results.Point{Throughput: base[r] * (1 - c)})
		}
		s.Experiments = append(s.Experiments, e)
	}
	return s
}

// TestStretchNamesOnlyWhatItsIntervalShows: a part is named as the limit
// only where its whole interval lies above what the same work would cost
// in parallel; one whose interval spans that is not named, and the answer
// says the experiment was undecided.
func TestStretchNamesOnlyWhatItsIntervalShows(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	s := stretches(base,
		map[string][]float64{
			"the cache mutex":              {0.090, 0.092, 0.088, 0.091, 0.089, 0.090},
			"the work outside every meter": {0.001, 0.004, -0.002, 0.003, 0.000, 0.002},
		},
		map[string]float64{"the cache mutex": 0.05, "the work outside every meter": 0.05})
	s.Judge()
	l := s.Limit()
	if l == nil || l.Name != "the cache mutex" {
		t.Fatalf("limit %+v, want the cache mutex", l)
	}
	if !s.Decided() {
		t.Errorf("both intervals lie on one side of 5 %%, yet undecided: %+v", s.Experiments)
	}
	if a := s.Answer(); !strings.HasPrefix(a, "The cache mutex limits this: holding it 10") || strings.Contains(a, "not every interval") {
		t.Errorf("answer %q", a)
	}

	// The mutex's costs now straddle what parallel work would cost.
	s = stretches(base,
		map[string][]float64{
			"the cache mutex":              {0.02, 0.08, 0.03, 0.07, 0.05, 0.06},
			"the work outside every meter": {0.001, 0.004, -0.002, 0.003, 0.000, 0.002},
		},
		map[string]float64{"the cache mutex": 0.05, "the work outside every meter": 0.05})
	s.Judge()
	if l := s.Limit(); l != nil {
		t.Errorf("named %s with its interval [%v, %v] around %v", l.Name, l.Lo, l.Hi, l.Parallel)
	}
	if a := s.Answer(); !strings.HasPrefix(a, "No single lock limits this") || !strings.Contains(a, "not every interval lies on one side") {
		t.Errorf("answer %q", a)
	}
}
