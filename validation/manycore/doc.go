// Package manycore holds benchmarks of Go's primitives in the shapes of
// the published multi-core measurements (testdata/published), and run.sh,
// which measures them, brewput's calibration and the coffee shop on every
// CPU count of a machine with more cores than this one. What it measured is
// kept in testdata/manycore, where the published command reads it.
package manycore
