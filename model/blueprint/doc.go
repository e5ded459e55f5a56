// Package blueprint simulates a concurrent system that a user describes in
// YAML, without writing Go: its steps and their durations, the resources
// they hold, groups, parallel branches, pipelines of stages joined by
// channels, and the load (docs/yaml.md). model.Simulate runs a Blueprint
// in virtual time; Shop compiles each of the coffee shop's modes into one,
// so that the model simulates the modes and the files alike.
//
// A file with a mistake gets an [*Error] naming the file, the line, what is
// wrong and what was expected. A blueprint that could deadlock (resources
// taken in different orders in different places) is refused.
package blueprint
