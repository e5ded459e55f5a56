// Package sweep answers what a point measures: it measures one (the
// coffee shop's Spec, or any Target) in this process or in a child
// restricted to the point's CPUs, the way the talk's runs used taskset,
// and a whole study of them in rounds, with its progress.
package sweep
