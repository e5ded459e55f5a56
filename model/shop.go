package model

import (
	"fmt"

	"github.com/brewput/brewput/model/sim"
)

// shop mirrors coffee.Shop, and declares the structure of its bounds.
type shop interface {
	// brew orders one drink and returns when it is ready.
	brew(p *sim.Proc)

	// meters returns the shared resources in coffee's Meters' order.
	meters() []*meter

	// structure declares what holds up a drink.
	structure() Structure
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

// held are a drink's kinds of machine, n of each, each held for its step.
func held(st steps, d drink, n Copies) []Resource {
	r := []Resource{
		{copiesName("grinder", n.Grinder), n.Grinder, st.meanGrind()},
		{copiesName("espresso", n.Espresso), n.Espresso, st.meanPress()},
	}
	if d.Steams() {
		r = append(r, Resource{copiesName("steamer", n.Steamer), n.Steamer, st.meanSteam()})
	}
	return r
}

// copiesOr is c with def for each kind c leaves 0.
func copiesOr(c Copies, def int) Copies {
	return Copies{Grinder: or(c.Grinder, def), Espresso: or(c.Espresso, def), Steamer: or(c.Steamer, def)}
}

// or is n, or def where n is 0.
func or(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}
