// Package limits answers "what limits this, and what would help?" by
// experiment in the model, after Coz (Curtsinger and Berger, SOSP 2015):
// speeding up X by x % gives y %.
//
// A causal profile (CausalProfiles) simulates a configuration of the shop or of
// a YAML system again, same seed, with each resource relieved a little in
// turn — a step 10 % shorter, one more machine or unit, a lock held for
// less, one more CPU (with and without a customer), twice the customers,
// twice a channel's buffer — and lists what each changed. The bottleneck
// is the relief that gains most, with those within 1 % of it; where none
// gains over 1 %, the smallest combination found that does. No
// utilization threshold decides it. Advise ranks with these, by gain
// against cost, the structural changes a designer would make. All of it
// simulates through model.Simulate.
package limits
