// Package meter counts how a program's shared resources are used — its
// locks and channels — so that brewput can say how much of the time each
// was held and waited for, as it says of the coffee shop's machines, and
// stretches them for an experiment, so that it can say which one limits
// the program.
//
// A Mutex, RWMutex or Chan is used as its sync or built-in counterpart is,
// and counts besides how many times it was taken (uses), how long it was
// held and how long callers waited for it. A study (package study) reads
// its variants' meters at the two edges of the measured window, and each
// point records the difference as one of its machines: uses, the fraction
// of the window the resource was held, and the mean wait per use, which
// the point's description (report/text's Describe) and the report give. They
// are measurements, not a verdict: a lock held most of the time need not
// be what limits a design.
//
// What limits it is found by experiment, as Coz (Curtsinger and Berger,
// SOSP 2015) finds it: each meter can be stretched (Stretch) — a lock held
// a little longer each time, a channel's handoff made a little slower —
// for one run, and the work outside every meter likewise, and the
// throughput each costs says which part the program waits on. A study's
// why command runs these experiments.
//
// Metering costs a clock read or two per use: see the package's
// benchmarks (go test ./measure/meter -bench .) for how much beside
// sync.Mutex on a given machine. An uncontended Lock takes no clock read
// to time a wait it did not have. Stretching costs nothing when off: an
// unstretched Unlock checks one field it has at hand.
package meter
