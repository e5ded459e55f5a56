package testkit

import "github.com/brewput/brewput/results"

// LabPoint is a measured point of the lab "t": its variant, on cpus CPUs, of
// throughput tput in ops/s, with the metrics given in pairs of name and
// value ("speedup", 1.5, …).
func LabPoint(variant string, cpus int, tput float64, metrics ...any) results.Point {
	m := map[results.Metric]float64{}
	for i := 0; i < len(metrics); i += 2 {
		m[results.Metric(metrics[i].(string))] = metrics[i+1].(float64)
	}
	return results.Point{Source: results.SourceMeasured, Lab: results.Lab{Name: "t", Variant: variant, Metrics: m},
		Mode: "t/" + variant, CPUs: cpus, Throughput: tput, Unit: "ops/s"}
}
