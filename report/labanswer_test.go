package report

import (
	"strconv"
	"strings"
	"testing"

	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

// labPoint is a lab's measured point of variant on n CPUs, making tput
// things a second at a median latency of p50 ms, keeping used CPUs busy.
func labPoint(variant string, n int, tput, p50, used float64) results.Point {
	return results.Point{Kind: results.KindLab, Source: results.SourceMeasured, Host: results.Host{Name: "box", Cores: 2}, Lab: &results.Lab{Name: "demo", Variant: variant},
		Spec: results.Spec{Mode: "demo/" + variant, CPUs: n, Load: results.Load{Par: n}}, Throughput: tput, Unit: "ops/s", Metrics: map[results.Metric]float64{results.CPUUsed: used, results.Util: used / float64(n)},
		Latency: results.Latency{P50: p50}}
}

// TestLabAnswersFirst: a lab's terminal answer is a few lines — what it
// measured, on each CPU count what makes the most and the least, and its
// chart's numbers as a small table in readable units — whatever the
// number of points, and never e-notation.
func TestLabAnswersFirst(t *testing.T) {
	t.Setenv("COLUMNS", "100") // the sentences below as wrapped at 100
	var ps []results.Point
	for n := 1; n <= 2; n++ {
		for i := range 4 {
			for par := 1; par <= 10; par++ {
				p := labPoint("v"+strconv.Itoa(i), n, float64(n)*(1e5+1000*float64(10*i+par)), 0.05, 1.01*float64(n))
				p.Par = par
				ps = append(ps, p)
			}
		}
	}
	ps = append(ps, labPoint("slow", 2, 4774, 2.5, 0.4))
	ps[len(ps)-1].OthersCPUs = 1.5 // disturbed
	fig := chartspec.Default("demo")
	fig.Best = true
	var b strings.Builder
	if err := WriteLabs(&b, ps, verdict.Labs(ps), map[string]chartspec.Figure{"demo": fig}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"lab demo, measured on host box: 81 points on 1 and 2 CPUs, 1 disturbed (other processes took CPU\n  while they ran): slow on 2 CPUs\n",
		// A disturbed point is never ranked: slow, disturbed, makes the
		// least as measured, and may not.
		"On 2 CPUs, inconclusive: other processes took CPU from slow while measured, so which makes the most\n  is not known (measure again on a quieter machine); of the 40 not disturbed, v3 (par 10) makes the\n  most, 280 kops/s at a median 50 µs, keeping 2.02 CPUs busy; v0 (par 1) the least, 202 kops/s.",
		"On 1 CPU, v3 (par 10) makes the most, 140 kops/s at a median 50 µs, keeping 1.01 CPUs busy; v0 (par\n  1) the least, 101 kops/s (×0.721 of the most).",
		"throughput (ops/s) against CPUs:\n",
		"  v0    110k  220k",
		"  v3    140k  280k",
		"  slow     -  4774",
		LabMore,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lab answer lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "e+") {
		t.Errorf("lab answer in e-notation:\n%s", out)
	}
	// Two lines for what was measured (the disturbed point named), three
	// for the count with it and two for the other, the table's title,
	// head and a row a line, the line on where the rest is.
	if n, want := strings.Count(out, "\n"), 2+3+2+2+5+1; n != want {
		t.Errorf("%d lines, want %d:\n%s", n, want, out)
	}
}
