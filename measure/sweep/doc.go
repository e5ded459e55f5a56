// Package sweep measures the coffee shop's modes across CPU counts: it turns
// a Spec into a results.Point, either in this process (Measure) or, as a
// real sweep does, in a child process restricted to the point's CPUs
// (Runner), the way the talk's runs used taskset.
package sweep
