// Package model holds brewput's virtual-time models of the coffee shop's
// modes, built on package sim: each mirrors its real implementation in
// package coffee line for line — the same processes, locks, channels and
// buffers, steps and drinks — so that coffee/X.go and model/X.go can be
// read side by side, and predicts the mode's throughput, latency, machine
// use and CPU use on any number of virtual CPUs in a fraction of the time a
// real run takes. load.go mirrors the harness's load in the same way:
// closed-loop customers, or an open loop's evenly spaced arrivals into a
// bounded queue with drops, its servers, and latency from intended arrival.
//
// [Run] simulates one point of any mode and returns what a measured point
// reports ([Result.Point] converts it), together with the point's analytic
// [Bounds]: the CPU bound, the structural bound of the most-held resource,
// the least latency a drink can have, and Little's law's check. Each mode
// declares the resources its code holds (a lock, a pool of machines, a
// stage process), so that the bounds come from its structure.
//
// A model's only inputs are the shop's structure and its step durations
// (and, under the go scheduling policy, the runtime's measured costs):
// there are no constants fitted to measurements. Under the fifo policy the
// model is the idealized machine of the talk, and reproduces its results
// exactly.
package model
