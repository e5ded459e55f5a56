// Package gobench measures a user's Go benchmarks the way brewput measures
// the coffee shop: it builds each package's test binary once (go test -c),
// runs it once per CPU count in a child process restricted to that many
// CPUs (affinity, as package sweep does) with -test.cpu set to match, reads
// its output with golang.org/x/perf/benchfmt, and turns every benchmark
// line into a point (results.BenchPoint): ops/s from ns/op, every metric
// kept, per CPU count and per repetition. Benchmarks that time their calls
// with package bench hand over their whole latency histogram too.
//
// A package that does not compile is an error holding the compiler's
// message (BuildError) before anything runs; a regular expression that
// matches no benchmark is NoMatchError; a benchmark that fails at one CPU
// count is a Failure beside the points of the others.
package gobench
