// Package model predicts the coffee shop's modes, and systems described in
// YAML (package blueprint), in virtual time on package sim. A mode is
// compiled into a blueprint from its family's shape (blueprint.Shop): the
// processes, locks, pools, channels, buffers and steps package coffee
// builds, metered as coffee meters them, so that a mode and a file
// describing the same shop are one model; load.go mirrors the harness's
// load.
//
// Simulate, the one way to simulate, takes configurations (a results.Spec
// with the steps, a variant, the go policy's costs) and returns
// results.Points with their analytic Bounds and, over the costs'
// uncertainty, a band. Its only inputs are the structure, the steps and,
// under the go policy, the runtime's measured costs: nothing is fitted.
// Under fifo the model is the talk's idealized machine, and reproduces its
// results exactly.
package model
