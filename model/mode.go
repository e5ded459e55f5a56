package model

import (
	"fmt"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// newShop builds mode m with variant v in s from its family's Drink and
// Shape, as coffee builds its shop.
func newShop(s *sim.Sim, m coffee.Mode, st steps, v coffee.Variant) (shop, error) {
	f := coffee.FamilyOf(m)
	switch f.Shape.Holds {
	case coffee.NoShop:
		return noop{}, nil
	case coffee.Nothing:
		return &ideal{kitchen: newKitchen(st, f.Drink)}, nil
	case coffee.KitchenLock:
		return newLocking(s, st, f.Drink, v.Split), nil
	case coffee.MachineLocks:
		pooled := f.Shape.N == coffee.MachineCopies // multi-N: pools of N
		fl := newFineLocking(s, st, f.Drink, v.Copies.Or(m.Copies()), pooled)
		if f.Shape.Forked {
			return &parSteam{fl}, nil
		}
		return fl, nil
	case coffee.Stages:
		return newPipeline(s, st, f.Drink, m.Buffer(), m.Lines(), f.Shape.Forked, v), nil
	}
	return nil, fmt.Errorf("mode %s: coffee has it, but there is no model of it yet", m)
}
