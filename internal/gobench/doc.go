// Package gobench measures a user's Go benchmarks as brewput measures the
// shop: each package's test binary, built once, runs per CPU count in a
// child pinned to that many CPUs, and every benchmark line becomes a point
// (results.BenchPoint), with the latency histogram of benchmarks that time
// their calls with package bench. A benchmark that fails at one CPU count
// is a Failure beside the others' points.
package gobench
