// Package calibrate answers what the Go runtime's own costs are on this
// machine: those the model's go policy charges (sim.Costs), such as
// switching goroutines on one P, waking an idle P, or the time a mutex
// Unlock or a channel operation that readies a waiting goroutine costs its
// caller. It times them (measure.go, with the microbenchmarks of
// microbench.go and the statistics of stats.go), on a quiet machine
// (quiet.go), and keeps them in a file the model reads (store.go), so
// that predictions rest on this runtime, measured, not on guesses or fits.
package calibrate
