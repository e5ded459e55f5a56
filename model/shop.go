package model

import (
	"fmt"

	"github.com/brewput/brewput/model/sim"
)

// shop mirrors coffee.Shop in a simulation, and declares the structure the
// bounds are read from.
type shop interface {
	// brew orders one drink and returns when it is ready: coffee's Brew,
	// run by a customer's (or an open loop server's) process.
	brew(p *sim.Proc)

	// meters returns the shop's shared resources in the order coffee's
	// Meters lists them: its machines and, where the mode has one, the
	// kitchen lock.
	meters() []*meter

	// structure declares what holds up a drink: the resources it must
	// hold, its CPU time and its critical path.
	structure() structure
}

// There is no Close: a real shop's Close stops its stage goroutines by
// closing channels, and a simulation's Stop unwinds every process instead.

// structure is what a mode's code implies for its bounds, declared by each
// mode next to the code it describes: no numbers but the steps' durations.
// The short names keep the modes' declarations short.
type (
	structure = Structure
	resource  = Resource
)

// copiesName names n copies of a kind of resource, as "grinder" or
// "grinder×2".
func copiesName(kind string, n int) string {
	if n == 1 {
		return kind
	}
	return fmt.Sprintf("%s×%d", kind, n)
}

// kitchen mirrors coffee's kitchen: the set of machines every mode but
// multi-N and the pipelines has, one grinder, one espresso machine and one
// steamer.
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

// work is the mean time of the drink's steps one after the other: its CPU
// time, and the critical path of a mode that does them in sequence.
func (k *kitchen) work() float64 {
	w := k.steps.meanGrind() + k.steps.meanPress()
	if k.drink.Steams() {
		w += k.steps.meanSteam()
	}
	if k.drink.Combines() {
		w += k.steps.meanCombine()
	}
	return w
}
