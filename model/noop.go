package model

import "github.com/brewput/brewput/model/sim"

// noop mirrors coffee/noop.go: it makes nothing, in no virtual time. The
// harness costs that a real noop measures are not modelled, so only an
// open loop, whose arrivals advance the clock, can simulate it.
type noop struct{}

func (noop) brew(*sim.Proc)       {}
func (noop) meters() []*meter     { return nil }
func (noop) structure() structure { return structure{} }
