package text

import (
	"testing"

	"github.com/brewput/brewput/results"
)

// TestCutShort says how far a run got.
func TestCutShort(t *testing.T) {
	p := results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: "noop", CPUs: 1}}
	lab := results.Point{Kind: results.KindLab, Source: results.SourceMeasured, Spec: results.Spec{Mode: "channels/x", CPUs: 1}, Lab: &results.Lab{Name: "channels"}}
	for _, c := range []struct {
		plan   results.Plan
		points []results.Point
		want   string
	}{
		{results.Plan{Command: "run", Points: 18}, []results.Point{p, p, p}, "The run was cut short: it stopped after 3 of 18 points."},
		{results.Plan{Command: "brewput", Points: 2, Labs: []string{"channels", "render"}}, []results.Point{p, p, lab}, "The run was cut short: it stopped after 2 of 2 points, before the labs render."},
		{results.Plan{Command: "lab channels"}, []results.Point{lab}, "The run was cut short: it stopped after 1 point(s)."},
	} {
		if got := CutShort(c.plan, c.points); got != c.want {
			t.Errorf("CutShort(%+v) = %q, want %q", c.plan, got, c.want)
		}
	}
}
