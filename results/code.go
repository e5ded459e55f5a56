package results

import (
	"strings"
)

// Benchmark is the part of a point that comes from a Go benchmark (its Kind
// is KindBench): a line of go test -bench output, measured by brewput bench
// on one CPU count or read from a file. The point's Mode is the benchmark's name without its
// "Benchmark" prefix, its CPUs the GOMAXPROCS it ran with (the name's -N
// suffix), its Ops the iterations and its Throughput 1 s over the time per
// operation, in ops/s.
type Benchmark struct {
	// Name is the benchmark's full name as go test prints it, without
	// the -N GOMAXPROCS suffix: "BenchmarkCache/mutex/read".
	Name string `json:"name"`
	// Pkg is the import path of the benchmark's package, from the
	// output's pkg: line.
	Pkg string `json:"pkg,omitempty"`
	// Iters is the iteration count go test reported.
	Iters int64 `json:"iters"`
	// Values are every measurement on the line, in its order and units:
	// ns/op, B/op and allocs/op, MB/s, and every unit a benchmark reports
	// with testing.B.ReportMetric.
	Values []BenchValue `json:"values"`
}

// BenchValue is one measurement of a benchmark line.
type BenchValue struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// Value returns the benchmark's value in unit, as go test wrote it
// ("ns/op", "B/op", "p99-ns"), and whether it has one.
func (b *Benchmark) Value(unit string) (float64, bool) {
	if b == nil {
		return 0, false
	}
	for _, v := range b.Values {
		if v.Unit == unit {
			return v.Value, true
		}
	}
	return 0, false
}

// BenchMode is the mode of a benchmark's point: its name without the
// "Benchmark" prefix, as benchstat shows it.
func BenchMode(name string) string {
	if m := strings.TrimPrefix(name, "Benchmark"); m != "" {
		return m
	}
	return name
}
