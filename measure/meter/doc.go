// Package meter counts how a program's locks and channels are used (how
// often, how long held, how long waited for) as brewput says of the coffee
// shop's machines, and stretches them to find which one limits the program.
//
// A Mutex, RWMutex or Chan is used as its sync or built-in counterpart. A
// study reads its meters at the window's edges and records the difference.
// A lock held most of the time need not be what limits a design: a study's
// why command finds that by experiment, as Coz (Curtsinger and Berger,
// SOSP 2015) does, stretching one meter (Stretch), or the work outside
// every meter, for a run: what each costs says what the program waits on.
//
// Metering costs a clock read or two per use (go test ./measure/meter
// -bench . compares it with sync.Mutex).
package meter
