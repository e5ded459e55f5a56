// Package coffee is the coffee shop brewput studies: real Go implementations
// of one system in many concurrent structures, so that a reader can put two
// of them side by side and see what the structure alone changes. Its
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
// Every machine, and the kitchen lock where there is one, carries a Meter
// that counts its uses, the time it was busy and the time callers waited to
// get it, which is how a run reports utilization and contention.
package coffee
