// Package model predicts the coffee shop's modes, and systems described in
// YAML (package blueprint), in virtual time on package sim: each mode
// mirrors its real implementation in package coffee line for line — the
// same processes, locks, channels, buffers and steps — so that coffee/X.go
// and model/X.go read side by side, and load.go mirrors the harness's load.
//
// Simulate is the one way to simulate: it takes configurations — a
// results.Spec with the steps, a variant, the go policy's costs and how to
// run it — and returns results.Points, with each point's analytic Bounds
// (the CPU bound, the most-held resource's, the least latency, Little's
// law's check) and, over the costs' uncertainty, a band.
//
// A model's only inputs are the structure and the steps' durations (and,
// under the go policy, the runtime's measured costs): no constants are
// fitted to measurements. Under the fifo policy the model is the talk's
// idealized machine, and reproduces its results exactly.
package model
