// Package model holds brewput's virtual-time models of the coffee shop's
// modes, built on package sim: each mirrors its real implementation in
// package coffee line for line — the same processes, locks, channels and
// steps — so that the two can be read side by side, and predicts the
// mode's throughput and latency on any number of virtual CPUs in a fraction
// of the time a real run takes.
//
// A model's only inputs are the shop's structure and its step durations:
// there are no constants fitted to measurements.
package model
