// Package model predicts the coffee shop's modes, and systems described in
// YAML (package blueprint), in virtual time on package sim: each mode
// mirrors package coffee line for line — the same processes, locks,
// channels, buffers and steps — so that coffee/X.go and model/X.go read
// side by side, and load.go mirrors the harness's load.
//
// Simulate, the one way to simulate, takes configurations (a results.Spec
// with the steps, a variant, the go policy's costs) and returns
// results.Points with their analytic Bounds and, over the costs'
// uncertainty, a band. Its only inputs are the structure, the steps and,
// under the go policy, the runtime's measured costs: nothing is fitted.
// Under fifo the model is the talk's idealized machine, and reproduces its
// results exactly.
package model
