// Package coffee answers what a concurrent structure alone changes: it is
// the coffee shop brewput studies, one system in real Go in many concurrent
// structures, to put side by side. Its
// modes and measurements follow the talk "Simulating a Real-World System
// (Coffee Shop) in Go" and its simulator; "the talk" in brewput's code and
// docs means that talk.
//
// A latte is four steps: grind the beans on the grinder, press the espresso
// on the espresso machine, steam the milk on the steamer, and combine the
// two, which needs no machine. Each step occupies one CPU for its duration
// (see package burn). A mode is one way of organizing the shop: no
// synchronization at all (ideal), one lock around the kitchen (locking), a
// lock per machine (finelocking), replicas of each machine (multi-N), a
// goroutine per machine connected by channels (linearpipe-N), and so on;
// Modes lists them all.
//
// Every machine, and the kitchen lock where there is one, carries a Meter (a
// meter.Meter) that counts its uses, the time it was busy and the time
// callers waited to get it, which is how a run reports utilization and
// contention.
package coffee
