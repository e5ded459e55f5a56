// Package calibrate answers what the Go runtime's own costs that the
// model's go policy charges (sim.Costs) are on this machine — switching
// goroutines on a P, waking an idle P, an Unlock or channel operation that
// readies a waiter — so that predictions rest on this runtime, measured:
// it times them on a quiet machine (measure.go, microbench.go) and keeps
// them in a file the model reads (store.go).
package calibrate
