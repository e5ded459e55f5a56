package compare_test

import (
	"os"
	"time"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// measured makes the points of one configuration, a point per throughput,
// as run --count would measure them on the host.
func measured(host, mode string, cpus int, throughputs ...float64) []results.Point {
	var points []results.Point
	for i, tp := range throughputs {
		points = append(points, results.Point{
			Source: results.SourceMeasured, Host: results.Host{Name: host}, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}}, Rep: i + 1,
			Ops: int64(tp), Throughput: tp, Unit: "lattes/s",
			Latency: results.Latency{P50: 1000 * float64(cpus) / tp, P99: 1300 * float64(cpus) / tp},
			Shop:    &results.Shop{Steps: results.Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}},
		})
	}
	return points
}

func ExampleCompare() {
	var old, new []results.Point
	// finelocking got faster, locking did not change, linearpipe-1 was
	// measured once on each side, multi-2 only before.
	old = append(old, measured("laptop", "finelocking", 2, 498, 502, 495, 505, 500, 497)...)
	new = append(new, measured("server", "finelocking", 2, 620, 615, 631, 618, 625, 622)...)
	old = append(old, measured("laptop", "locking", 2, 250, 252, 247, 251, 249, 253)...)
	new = append(new, measured("server", "locking", 2, 251, 248, 252, 250, 246, 254)...)
	old = append(old, measured("laptop", "linearpipe-1", 2, 480)...)
	new = append(new, measured("server", "linearpipe-1", 2, 510)...)
	old = append(old, measured("laptop", "multi-2", 4, 900)...)

	c := compare.Compare(old, new, compare.Options{})
	text.WriteComparison(os.Stdout, c)
	// Output:
	// old: laptop (14 points, count 1-6)   new: server (13 points, count 1-6)
	// Measured, 3 configurations in both, 1 to 6 runs each: finelocking on 2 CPUs,
	// throughput +24.4% better, p50 latency -19.6% better, p99 latency -19.6% better;
	// no significant difference in 1 other; too few runs for a verdict in 1 (--count 6
	// gives one).
	//
	// throughput, lattes/s (higher is better)
	//   mode         cpus         old         new   delta      p  n  verdict
	//   finelocking     2  499.0 ± 1%  621.0 ± 2%  +24.4%  0.002  6  better
	//   locking         2  250.5 ± 1%  250.5 ± 2%   +0.0%  0.983  6  ~
	//
	// p50 latency, ms (lower is better)
	//   mode         cpus         old         new   delta      p  n  verdict
	//   finelocking     2  4.008 ± 1%  3.221 ± 2%  -19.6%  0.002  6  better
	//   locking         2  7.984 ± 1%  7.984 ± 2%   +0.0%  0.983  6  ~
	//
	// p99 latency, ms (lower is better)
	//   mode         cpus         old         new   delta      p  n  verdict
	//   finelocking     2  5.210 ± 1%  4.187 ± 2%  -19.6%  0.002  6  better
	//   locking         2  10.38 ± 1%  10.38 ± 2%   +0.0%  0.983  6  ~
	//
	// The figures of 1 configuration with too few runs for a verdict are summed up
	// above; --all shows them.
	//
	// only in old (1):
	//   multi-2 cpus=4 par=4
}
