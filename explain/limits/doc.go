// Package limits answers "what limits this, and what would help?" by
// experiment in the model, after Coz (Curtsinger and Berger, SOSP 2015):
// speeding up X by x % gives y %.
//
// A causal profile (ProfileMode, ProfileModes, ProfileBlueprint) takes one
// configuration of the coffee shop, or of a YAML system, and re-simulates
// it with each resource relieved a little, one at a time and with the
// same seed — each step 10 % shorter, one more machine of each kind, a
// lock held for less, one more CPU (with and without one more customer),
// twice the customers, twice each channel's buffer — and lists what every
// experiment changed in throughput and in the median and 99th percentile
// latency. The bottleneck is the profile's answer: the resource whose
// relief gains the most, with those within 1 % of it named together;
// where no single relief gains more than 1 %, the smallest combination of
// reliefs found that does. No utilization threshold decides it, and the
// words name only changes that were tried, with their figures.
//
// The structural what-ifs (AdviseMode, AdviseBlueprint) try, in the same
// model, the changes a designer would make — another copy of the
// bottleneck, a buffer between pipeline stages, a shorter or split
// critical section, more CPUs, more customers — and rank them with the
// profile's experiments by predicted gain against what they cost.
//
// Simulate and SimulateBlueprint are the one way to simulate a set of
// configurations with their profiles, as the CLI's model command does.
package limits
