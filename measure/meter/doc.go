// Package meter counts how a program's locks and channels are used — how
// often, how long held, how long waited for — as brewput says of the coffee
// shop's machines, and stretches them for an experiment, to say which one
// limits the program.
//
// A Mutex, RWMutex or Chan is used as its sync or built-in counterpart is.
// A study reads its meters at the edges of the measured window and records
// the difference in each point. Those are measurements, not a verdict: a
// lock held most of the time need not be what limits a design. That is
// found by experiment, as Coz (Curtsinger and Berger, SOSP 2015) finds it:
// stretch one meter (Stretch) for a run, and the work outside every meter
// likewise, and the throughput each costs says which part the program
// waits on. A study's why command runs these experiments.
//
// Metering costs a clock read or two per use (go test ./measure/meter
// -bench . compares it with sync.Mutex); an uncontended Lock times no
// wait, and an unstretched Unlock checks one field.
package meter
