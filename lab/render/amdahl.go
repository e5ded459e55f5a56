package render

import (
	"fmt"
	"math"
	"slices"

	"github.com/brewput/brewput/results"
)

// Amdahl is the best speedup on cpus CPUs of a program whose fraction
// serial of the work cannot run in parallel: 1/(serial + (1−serial)/cpus).
// It is 0 for fewer than 1 CPU.
func Amdahl(serial float64, cpus int) float64 {
	if cpus < 1 {
		return 0
	}
	return 1 / (serial + (1-serial)/float64(cpus))
}

// KarpFlatt is the serial fraction that a speedup measured on cpus CPUs
// implies, Amdahl's law solved for it: (1/speedup − 1/cpus) / (1 − 1/cpus).
// It counts every loss -- serial code, overhead, imbalance -- as serial
// work; noise can make it a little negative. It is undefined (NaN) on
// fewer than 2 CPUs or for a speedup that is not positive.
func KarpFlatt(speedup float64, cpus int) float64 {
	if cpus < 2 || !(speedup > 0) {
		return math.NaN()
	}
	n := float64(cpus)
	return (1/speedup - 1/n) / (1 - 1/n)
}

// CurvePoint is one CPU count on Amdahl's curve.
type CurvePoint struct {
	// CPUs is the CPU count.
	CPUs int
	// Best is Amdahl's best speedup of render and encode on CPUs CPUs,
	// for the serial fraction Curve estimated.
	Best float64
	// Measured holds, by variant, the whole program's speedup measured on
	// CPUs CPUs (the points' "total_speedup", the median where several
	// points share variant and CPU count); nil where none was.
	Measured map[string]float64
}

// SerialFraction estimates the program's serial fraction from the seq
// points of this lab among points: the median of their "serial_fraction"
// metrics, the encode's share of the sequential program. It fails if there
// is no such point.
func SerialFraction(points []results.Point) (float64, error) {
	var fs []float64
	for _, p := range points {
		if s, ok := p.Metrics[MetricSerialFraction]; ok && p.Lab.Name == Name && p.Variant == "seq" {
			fs = append(fs, s)
		}
	}
	if len(fs) == 0 {
		return 0, fmt.Errorf("render: no seq point to estimate the serial fraction from")
	}
	return results.Median(fs), nil
}

// Curve is Amdahl's curve for the serial fraction SerialFraction estimates
// from points, at each CPU count in cpus (such as Config.ModelCPUs) and at
// each CPU count measured, in increasing order, with the measured
// whole-program speedups on it. Points of other labs are ignored; points
// should come from one machine, as their serial fractions are pooled.
func Curve(points []results.Point, cpus []int) ([]CurvePoint, error) {
	serial, err := SerialFraction(points)
	if err != nil {
		return nil, err
	}
	measured := map[int]map[string][]float64{}
	all := slices.Clone(cpus)
	for _, p := range points {
		s, ok := p.Metrics[MetricTotalSpeedup]
		if !ok || p.Lab.Name != Name {
			continue
		}
		if measured[p.CPUs] == nil {
			measured[p.CPUs] = map[string][]float64{}
			all = append(all, p.CPUs)
		}
		measured[p.CPUs][p.Variant] = append(measured[p.CPUs][p.Variant], s)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	curve := []CurvePoint{}
	for _, n := range all {
		if n < 1 {
			continue
		}
		cp := CurvePoint{CPUs: n, Best: Amdahl(serial, n)}
		for v, ss := range measured[n] {
			if cp.Measured == nil {
				cp.Measured = map[string]float64{}
			}
			cp.Measured[v] = results.Median(ss)
		}
		curve = append(curve, cp)
	}
	return curve, nil
}
