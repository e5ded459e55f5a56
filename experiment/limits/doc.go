// Package limits answers "what limits this, and what would help?" by
// experiment in the model, after Coz (Curtsinger and Berger, SOSP 2015).
// A causal profile (CausalProfiles) simulates a configuration again, same
// seed, with each resource relieved a little in turn. The bottleneck is
// the relief that gains most, with those within 1 % of it; where none
// gains over 1 %, the smallest combination found that does. Advise ranks
// these, with the structural changes a designer would make, by gain
// against cost.
package limits
