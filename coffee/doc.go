// Package coffee answers what a concurrent structure alone changes: it is
// the coffee shop brewput studies, one system in real Go in many concurrent
// structures, to put side by side. Its modes and measurements follow the
// talk "Simulating a Real-World System (Coffee Shop) in Go" ("the talk" in
// brewput's code and docs).
//
// A latte is four steps: grind, press, steam the milk, and combine, which
// needs no machine; each occupies one CPU for its duration (package burn).
// A mode is one way of organizing the shop; Families lists them all. Every
// machine, and the kitchen lock, carries a Meter.
package coffee
