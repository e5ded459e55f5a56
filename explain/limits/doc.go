// Package limits answers "what limits this, and what would help?" by
// experiment in the model, after Coz (Curtsinger and Berger, SOSP 2015):
// speeding up X by x % gives y %.
//
// A causal profile (Profiles) takes one configuration of the coffee shop,
// or of a YAML system, and simulates it again with each resource relieved
// a little, one at a time, with the same seed — a step 10 % shorter, one
// more machine or unit, a lock held for less, one more CPU (with and
// without one more customer), twice the customers, twice a channel's
// buffer — and lists what each changed in throughput and latency. The
// bottleneck is the relief that gains the most, with those within 1 % of
// it; where none gains more than 1 %, the smallest combination found that
// does. No utilization threshold decides it.
//
// Advise adds the structural changes a designer would make — another copy
// of the bottleneck, buffers between stages, a split critical section,
// more CPUs — and ranks them with the profile's by gain against cost. All
// of it simulates through model.Simulate.
package limits
