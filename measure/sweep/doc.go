// Package sweep answers what a point measures: it measures one (any
// system's Spec, or a Target) in this process or in a child restricted to
// the point's CPUs, the way the talk's runs used taskset, and a whole
// study of them in rounds, with its progress. It knows no system: the
// coffee shop's points are coffee/shopsweep's.
package sweep
