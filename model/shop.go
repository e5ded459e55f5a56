package model

import (
	"fmt"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// shop mirrors coffee.Shop.
type shop interface {
	// brew orders one drink and returns when it is ready.
	brew(p *sim.Proc)

	// meters returns the shared resources in coffee's Meters' order.
	meters() []*meter
}

// There is no Close: a simulation's Stop unwinds every process.

// copiesName names n copies of a kind: "grinder", "grinder×2".
func copiesName(kind string, n int) string {
	if n == 1 {
		return kind
	}
	return fmt.Sprintf("%s×%d", kind, n)
}

// kitchen mirrors coffee's kitchen: one machine of each kind.
type kitchen struct {
	steps                      steps
	drink                      drink
	grinder, espresso, steamer *machine
}

func newKitchen(st steps, d drink) kitchen {
	return kitchen{
		steps:    st,
		drink:    d,
		grinder:  newMachine("grinder", st.cpus),
		espresso: newMachine("espresso", st.cpus),
		steamer:  newMachine("steamer", st.cpus),
	}
}

// meters lists the machines the drink uses.
func (k *kitchen) meters() []*meter {
	m := []*meter{&k.grinder.meter, &k.espresso.meter}
	if k.drink.Steams() {
		m = append(m, &k.steamer.meter)
	}
	return m
}

// structureOf is what holds up a drink of mode m changed by v: what it
// holds during each step (coffee's Mode.Holder, which the causal profile
// relieves), held for the mean of those steps, as many at once as there
// are copies; its critical path the steps one after another, or with the
// milk steamed beside grinding and pressing.
func structureOf(m coffee.Mode, v coffee.Variant, st steps) Structure {
	f := coffee.FamilyOf(m)
	if f.Shape.Holds == coffee.NoShop {
		return Structure{}
	}
	work := st.work(f.Drink)
	s := Structure{CPU: work, Path: work}
	if f.Shape.Forked {
		s.Path = st.forked()
	}
	copies := v.Copies.Or(m.Copies())
	holders := map[string]int{} // a holder → its index in s.Resources
	for _, step := range []struct {
		name string
		mean float64
		used bool
	}{
		{"grind", st.meanGrind(), true},
		{"press", st.meanPress(), true},
		{"steam", st.meanSteam(), f.Drink.Steams()},
		{"combine", st.meanCombine(), f.Drink.Combines()},
	} {
		holder := m.Holder(step.name, v)
		if !step.used || holder == "" {
			continue
		}
		if i, ok := holders[holder]; ok {
			s.Resources[i].Hold += step.mean
			continue
		}
		n := 1
		if k := copies.Kind(holder); k > 0 { // a machine, not a lock
			n = k * m.Lines()
		}
		holders[holder] = len(s.Resources)
		s.Resources = append(s.Resources, Resource{copiesName(holder, n), n, step.mean})
	}
	return s
}

// or is n, or def where n is 0.
func or(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}
