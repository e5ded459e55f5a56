// Command sidebyside prints measured points beside the model's predictions
// of the same configurations and the analytic bound, with how far each
// prediction is from the measurement. model-vs-measured.sh runs it; it
// takes results files as arguments (measured and model points in any of
// them) and has no flags.
//
//	go run ./sidebyside DIR/*.json
package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/brewput/brewput/results"
)

// key is a configuration, without its source.
type key struct {
	mode      string
	cpus, par int
	rate      float64
	steps     results.Steps
}

func keyOf(p results.Point) key {
	s := p.Steps()
	s.Clock = "" // the model burns no clock
	return key{p.Mode, p.CPUs, p.Par, p.Rate, s}
}

// entry gathers one configuration's points: the measured ones (medians of
// repetitions) and the model's under each policy.
type entry struct {
	measured []float64
	p50      []float64
	model    map[string]results.Point
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sidebyside RESULTS-FILE...")
		os.Exit(2)
	}
	points, err := results.ReadFiles(os.Args[1:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var order []key
	entries := map[key]*entry{}
	for _, p := range points {
		k := keyOf(p)
		e := entries[k]
		if e == nil {
			e = &entry{model: map[string]results.Point{}}
			entries[k] = e
			order = append(order, k)
		}
		if p.Source == "model" {
			e.model[p.Sched] = p
		} else {
			e.measured = append(e.measured, p.Throughput)
			e.p50 = append(e.p50, p.Latency.P50)
		}
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "mode\tcpus\tpar\tsteps ms\tmeasured\tmodel go\tgo band\tΔ go\tmodel fifo\tΔ fifo\tbound\tΔ bound\tp50 measured\tp50 go\tΔ go\tp50 fifo\tΔ fifo\t")
	var dGoThr, dFifoThr, dGoP50, dFifoP50 []float64
	closer, total, covered, banded, nearThr, nearP50 := 0, 0, 0, 0, 0, 0
	var misses []string
	for _, k := range order {
		e := entries[k]
		gp, hasGo := e.model["go"]
		fp, hasFifo := e.model["fifo"]
		if len(e.measured) == 0 || !hasGo && !hasFifo {
			continue // nothing to set side by side
		}
		m, mp := results.Median(e.measured), results.Median(e.p50)
		bound := math.NaN()
		if b := gp.Bounds; hasGo && b != nil {
			bound = b.ThroughputMax
		} else if b := fp.Bounds; hasFifo && b != nil {
			bound = b.ThroughputMax
		}
		dGo, dFifo, dBound := rel(gp.Throughput, m, hasGo), rel(fp.Throughput, m, hasFifo), rel(bound, m, !math.IsNaN(bound))
		pGo, pFifo := rel(gp.Latency.P50, mp, hasGo), rel(fp.Latency.P50, mp, hasFifo)
		band := "-"
		if hasGo && gp.Band != nil {
			band = fmt.Sprintf("%.0f–%.0f", gp.Band.Throughput[0], gp.Band.Throughput[1])
			banded++
			if m >= gp.Band.Throughput[0]*0.995 && m <= gp.Band.Throughput[1]*1.005 {
				covered++
			}
			name := fmt.Sprintf("%s on %d CPUs, %d customers, steps %g/%g/%g/%g ms", k.mode, k.cpus, k.par, results.Ms(k.steps.Grind), results.Ms(k.steps.Press), results.Ms(k.steps.Steam), results.Ms(k.steps.Combine))
			if near(m, gp.Band.Throughput, gp.Throughput) {
				nearThr++
			} else {
				misses = append(misses, fmt.Sprintf("throughput of %s: %s", name, pct(dGo)))
			}
			if near(mp, gp.Band.P50Ms, gp.Latency.P50) {
				nearP50++
			} else {
				misses = append(misses, fmt.Sprintf("p50 of %s: %s", name, pct(pGo)))
			}
		}
		if hasGo && hasFifo && m > 0 && mp > 0 {
			dGoThr, dFifoThr = append(dGoThr, math.Abs(dGo)), append(dFifoThr, math.Abs(dFifo))
			dGoP50, dFifoP50 = append(dGoP50, math.Abs(pGo)), append(dFifoP50, math.Abs(pFifo))
		}
		if hasGo && !math.IsNaN(bound) {
			total++
			if math.Abs(dGo) <= math.Abs(dBound) {
				closer++
			}
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%g/%g/%g/%g\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t\n",
			k.mode, k.cpus, k.par, results.Ms(k.steps.Grind), results.Ms(k.steps.Press), results.Ms(k.steps.Steam), results.Ms(k.steps.Combine), m,
			num(gp.Throughput, hasGo), band, pct(dGo), num(fp.Throughput, hasFifo), pct(dFifo), num(bound, !math.IsNaN(bound)), pct(dBound),
			mp, ms(gp.Latency.P50, hasGo), pct(pGo), ms(fp.Latency.P50, hasFifo), pct(pFifo))
	}
	w.Flush()
	if total > 0 {
		fmt.Printf("\nthe go policy is closer to the measurement than the bound in %d of %d points\n", closer, total)
	}
	if len(dGoThr) > 0 {
		fmt.Printf("throughput |Δ|: go median %.1f %%, worst %.1f %%; fifo median %.1f %%, worst %.1f %%\n",
			100*results.Median(dGoThr), 100*slices.Max(dGoThr), 100*results.Median(dFifoThr), 100*slices.Max(dFifoThr))
		fmt.Printf("p50 |Δ|:        go median %.1f %%, worst %.1f %%; fifo median %.1f %%, worst %.1f %%\n",
			100*results.Median(dGoP50), 100*slices.Max(dGoP50), 100*results.Median(dFifoP50), 100*slices.Max(dFifoP50))
	}
	if banded > 0 {
		fmt.Printf("the go policy's band holds the measured throughput (±0.5 %%) in %d of %d points\n", covered, banded)
		fmt.Printf("within the go policy's band or 3 %% of its prediction: throughput %d of %d points, p50 %d of %d\n", nearThr, banded, nearP50, banded)
		for _, m := range misses {
			fmt.Printf("  outside both: %s\n", m)
		}
	}
}

// near says whether the measurement m lies within band, or within 3 % of
// the prediction x.
func near(m float64, band [2]float64, x float64) bool {
	return m >= band[0] && m <= band[1] || math.Abs(x-m) <= 0.03*m
}

// rel is (x - m) / m, NaN when x is missing.
func rel(x, m float64, ok bool) float64 {
	if !ok || m == 0 {
		return math.NaN()
	}
	return (x - m) / m
}

func num(x float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.0f", x)
}

func ms(x float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f", x)
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", 100*x)
}
