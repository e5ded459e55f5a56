package model

import "github.com/brewput/brewput/model/sim"

// noop mirrors coffee/noop.go: nothing, in no time (open loops only).
type noop struct{}

func (noop) brew(*sim.Proc)   {}
func (noop) meters() []*meter { return nil }
