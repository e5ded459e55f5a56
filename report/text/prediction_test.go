package text

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// A check says how far a measurement lies outside the band, from its
// nearest edge.
func TestCheckVerdict(t *testing.T) {
	for _, c := range []struct {
		measured float64
		want     string
	}{{100, "within its band"}, {90, "within its band"}, {110.2, "within its band"}, {72, "off by -20 %"}, {132, "off by +20 %"}} {
		if got := CheckVerdict(analysis.Check{Measured: c.measured, Predicted: 100, Lo: 90, Hi: 110}); got != c.want {
			t.Errorf("measured %v against [90, 110]: %q, want %q", c.measured, got, c.want)
		}
	}
}

// predictedPoint is studyPoint predicted by the study's model under the
// go policy, with its band.
func predictedPoint(variant string, cpus int, tput, lo, hi float64) results.Point {
	p := studyPoint(variant, cpus, tput, 0.0001)
	p.Source, p.Sched = results.SourceModel, "go"
	p.Band = &results.Band{Throughput: [2]float64{lo, hi}}
	return p
}

// A study's predicted points are said apart from its measured ones: the
// variants on the most CPUs predicted with their bands, how many checks
// hold and by how much the others miss, what the model leaves out; the
// measured sentences stay about the measured points only.
func TestStudyPrediction(t *testing.T) {
	points := []results.Point{
		studyPoint("a", 1, 10e6, 0.0001), studyPoint("a", 1, 11e6, 0.0001), studyPoint("a", 1, 12e6, 0.0001),
		studyPoint("b", 1, 8e6, 0.0001),
		predictedPoint("a", 1, 11e6, 10.5e6, 11.5e6), predictedPoint("a", 8, 30e6, 25e6, 31e6),
		predictedPoint("b", 1, 10e6, 10e6, 10e6), predictedPoint("b", 8, 60e6, 60e6, 60e6),
	}
	points[7].Study.Meters = nil // b's model holds no lock
	ds := verdict.Studies(points)
	if len(ds) != 1 || ds[0].Prediction == nil {
		t.Fatalf("described %+v; want one study with a prediction", ds)
	}
	d := ds[0]
	if len(d.Counts) != 1 || d.Counts[0].CPUs != 1 {
		t.Errorf("measured counts %+v; want 1 CPU only", d.Counts)
	}
	got := strings.Join(StudySentences(d), "\n")
	for _, want := range []string{
		"On 8 CPUs, predicted by its model (go): a 30 Mops/s [25M, 31M]; b 60 Mops/s (no meter, so its model holds no lock",
		"Held against what was measured on 1 CPU: 1 of 2 points lie within the predicted band; b on 1 CPU measured 8 Mops/s, predicted 10M [10M, 10M]: off by -20 %.",
		LeavesOut,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("sentences lack %q:\n%s", want, got)
		}
	}
	var b strings.Builder
	if err := WriteCompact(&b, points, analyze.Answer(points, coffee.Declared{}), nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "study cache, predicted by its model (go):") || !strings.Contains(b.String(), "off by -20 %") {
		t.Errorf("compact text lacks the prediction's table:\n%s", b.String())
	}
}
