// Package calibrate measures the Go runtime's own costs that the model's go
// scheduling policy charges (sim.Costs): switching goroutines on one P,
// waking an idle P, and the time a mutex Unlock or a channel operation that
// readies a waiting goroutine costs its caller. The model reads them from a
// file written here, so that its predictions rest on this machine's
// runtime, measured, rather than on guesses or on fits to results.
package calibrate
