package limits_test

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/results"
)

// Points advises once per mode of the shop, where it was measured with
// the most CPUs, and says which mode it cannot advise on.
func TestPoints(t *testing.T) {
	point := func(mode string, cpus int, source string) results.Point {
		cfg := config(mode, cpus, "fifo")
		cfg.Rate = 0
		if mode == "noop" { // a closed-loop noop cannot be simulated: as measured
			return results.Point{Source: source, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}}, Shop: &results.Shop{}}
		}
		p := simulate(t, cfg)
		p.Source = source
		return p
	}
	points := []results.Point{
		point("finelocking", 1, results.SourceMeasured), point("finelocking", 2, results.SourceMeasured),
		point("finelocking", 4, results.SourceModel), point("locking", 3, results.SourceModel),
		point("noop", 1, results.SourceMeasured),
		{Source: results.SourceModel, Spec: results.Spec{Mode: "cafe", CPUs: 2}, Shop: &results.Shop{}},
		{Kind: results.KindLab, Source: results.SourceMeasured, Spec: results.Spec{Mode: "workloads/add/sequential", CPUs: 2}, Lab: &results.Lab{Name: "workloads"}},
	}
	advice, skipped := limits.Points(points, limits.Fifo())
	var got []string
	for _, a := range advice {
		got = append(got, a.System)
	}
	if strings.Join(got, "; ") != "finelocking on 2 CPUs; locking on 3 CPUs" {
		t.Errorf("advice on %q, want finelocking on 2 CPUs (measured) and locking on 3", got)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0].Error(), "no advice for noop") {
		t.Errorf("skipped %v, want noop's error", skipped)
	}
}
