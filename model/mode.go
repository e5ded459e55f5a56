package model

import (
	"fmt"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/sim"
)

// newShop builds the model of mode m in simulation s, starting its
// processes if it has any, as coffee.Families' build functions build the
// real shop, family for family.
func newShop(s *sim.Sim, m coffee.Mode, st steps, copies Copies) (shop, error) {
	switch m.Family {
	case "ideal":
		return newIdeal(st), nil
	case "locking":
		return newLocking(s, st), nil
	case "finelocking":
		return newFineLocking(s, st, latte), nil
	case "parsteam":
		return newParSteam(s, st), nil
	case "americano":
		return newFineLocking(s, st, americano), nil
	case "espresso":
		return newFineLocking(s, st, espresso), nil
	case "multi":
		return newMulti(s, st, m.N, copies), nil
	case "linearpipe":
		return newLinearPipe(s, st, latte, m.N, 1), nil
	case "splitpipe":
		return newSplitPipe(s, st, m.N), nil
	case "multipipe":
		return newLinearPipe(s, st, latte, 1, m.N), nil
	case "americanopipe":
		return newLinearPipe(s, st, americano, m.N, 1), nil
	case "espressopipe":
		return newLinearPipe(s, st, espresso, m.N, 1), nil
	case "noop":
		return noop{}, nil
	}
	return nil, fmt.Errorf("mode %s: coffee has it, but there is no model of it yet", m)
}
