// Package blueprint simulates a concurrent system that a user describes in
// YAML, without writing Go: its steps and their durations (fixed, or drawn
// from a distribution), the resources they hold, groups, parallel
// branches, pipelines of stages joined by channels, and the load.
// model.Simulate runs a Blueprint in virtual time, so that `brewput model
// --model shop.yaml` predicts its throughput, latency and contention on
// any number of CPUs. docs/yaml.md gives the format, and ExampleParse an
// example. Shop compiles each of the coffee shop's modes into a Blueprint:
// the model simulates the modes and the files alike.
//
// A file with a mistake gets an [*Error] naming the file, the line, what is
// wrong and what was expected. A blueprint that could deadlock (resources
// taken in different orders in different places) is refused.
//
// A run's point counts the orders completed in the window, whatever the
// unit, with their latency (from the intended arrival in an open loop);
// its machines are the resources some step uses (the others are not
// simulated), then the pipelines' stages, each with its busy fraction
// (mean units in use ÷ capacity) and mean wait; its bounds come from the
// structure alone (CPU time and the most-held resource or stage per
// order, the critical path as the latency floor).
package blueprint
