// Package meter counts how a program's shared resources are used — its
// locks and channels — so that brewput can say how much of the time each
// was held and waited for, as it says of the coffee shop's machines.
//
// A Mutex, RWMutex or Chan is used as its sync or built-in counterpart is,
// and counts besides how many times it was taken (uses), how long it was
// held and how long callers waited for it. A study (package study) reads
// its variants' meters at the two edges of the measured window, and each
// point records the difference as one of its machines: uses, the fraction
// of the window the resource was held, and the mean wait per use, which
// the point's description (scaling.Describe) and the report give. They
// are measurements, not a verdict: brewput has no model of the user's
// code to experiment on, so it does not say that a lock held most of the
// time is what limits a design — a variant that changes the lock (the
// same map sharded, say), measured beside it, does.
//
// Metering costs a clock read or two per use: see the package's
// benchmarks (go test ./measure/meter -bench .) for how much beside sync.Mutex on
// a given machine. An uncontended Lock takes no clock read to time a wait
// it did not have.
package meter
