// Package causal answers "what limits this, and what would help?" by
// experiment, after Coz (Curtsinger and Berger, SOSP 2015): speeding up X
// by x % gives y %. For one configuration of the shop (or of a YAML
// system) it re-simulates the model with each resource relieved a little,
// one at a time and with the same seed — each step 10 % shorter, one more
// machine of each kind, a lock held for less, one more CPU (with and
// without one more customer), twice the customers, twice each channel's
// buffer — and lists what every experiment changed in throughput and in
// the median and 99th percentile latency.
//
// The bottleneck is the profile's answer: the resource whose relief gains
// the most, with those within 1 % of it named together; where no single
// relief gains more than 1 %, the smallest combination of reliefs found
// that does. No utilization threshold decides it, and the words name only
// changes that were tried, with their figures.
package causal
