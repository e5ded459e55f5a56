// Package verdict answers first what a study found: for the CPU counts
// where the picture changes, which modes make the most at what latency,
// and for each mode the one thing that limits it and what the best change
// the causal profile tried gains. Every word is computed from the points
// and the bottlenecks they carry (package limits): measured figures are
// said to be measured here, predicted ones the model's.
//
// Grid lays the points out as modes by CPU counts, the measured point of a
// cell speaking for it where there is one; the report's map of what limits
// what is drawn from it. WriteText is the verdict a terminal shows, a few
// lines; WriteCompact the short table under it: the measured points and
// the model's, each summarized a row per mode; Lab a lab's answer, which
// package report writes with its chart's numbers.
package verdict
