package model

import (
	"fmt"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// newShop builds mode m with variant v in s, as coffee.Families do.
func newShop(s *sim.Sim, m coffee.Mode, st steps, v coffee.Variant) (shop, error) {
	switch m.Family {
	case "ideal":
		return newIdeal(st), nil
	case "locking":
		return newLocking(s, st, v.Split), nil
	case "finelocking":
		return newFineLocking(s, st, latte, v.Copies), nil
	case "parsteam":
		return newParSteam(s, st, v.Copies), nil
	case "americano":
		return newFineLocking(s, st, americano, v.Copies), nil
	case "espresso":
		return newFineLocking(s, st, espresso, v.Copies), nil
	case "multi":
		return newMulti(s, st, m.N, v.Copies), nil
	case "linearpipe":
		return newPipeline(s, st, latte, m.N, 1, v), nil
	case "splitpipe":
		return newSplitPipe(s, st, m.N, v), nil
	case "multipipe":
		return newPipeline(s, st, latte, 1, m.N, v), nil
	case "americanopipe":
		return newPipeline(s, st, americano, m.N, 1, v), nil
	case "espressopipe":
		return newPipeline(s, st, espresso, m.N, 1, v), nil
	case "noop":
		return noop{}, nil
	}
	return nil, fmt.Errorf("mode %s: coffee has it, but there is no model of it yet", m)
}
