// Package coffee answers what a concurrent structure alone changes: it is
// the coffee shop brewput studies, one system in real Go in many concurrent
// structures, to put side by side. Its modes and measurements follow the
// talk "Simulating a Real-World System (Coffee Shop) in Go" ("the talk" in
// brewput's code and docs).
//
// A latte is four steps: grind on the grinder, press on the espresso
// machine, steam the milk on the steamer, and combine, which needs no
// machine; each occupies one CPU for its duration (package burn). A mode is
// one way of organizing the shop — no synchronization (ideal), one lock
// around the kitchen (locking), a lock per machine (finelocking), copies of
// each machine (multi-N), a goroutine per machine joined by channels
// (linearpipe-N), …; Families lists them all.
//
// Every machine, and the kitchen lock, carries a Meter counting its uses,
// the time it was busy and the time callers waited: a run's utilization
// and contention.
package coffee
