package coffee

import "fmt"

// newPipeline builds an assembly line (linearpipe): one goroutine per
// machine, connected by channels with room for buffer orders. The customer
// hands in an order, waits for it to come off the line, then combines.
// With no buffer, a barista who finishes early stands holding the grounds
// until the next one is free; a buffer is counter space to put them down.
// Without the steamer it makes americanopipe and espressopipe; multipipe-N
// is N lines sharing one order queue; forked, it is splitpipe: the
// customer also hands the order to the steamer at once, on the milk's own
// channel. v changes each stage's workers (Copies) on every line and the
// buffer into each stage (Buffers).
func newPipeline(steps Steps, drink Drink, buffer, lines int, forked bool, v Variant) *pipeline {
	orders := make(chan ticket, or(v.Buffers.Grinder, buffer))
	s := &pipeline{steps: steps, drink: drink, heads: []chan ticket{orders}}
	var milk chan ticket
	if forked {
		milk = make(chan ticket, or(v.Buffers.Steamer, buffer))
		s.heads = append(s.heads, milk)
	}
	machines := crewNames(lines, v.Copies, steps)
	for range lines {
		ground := make(chan ticket, or(v.Buffers.Espresso, buffer))
		s.staff(machines("grinder"), steps.grind, orders, ground)
		switch {
		case forked:
			s.staff(machines("espresso"), steps.press, ground, nil)
			s.staff(machines("steamer"), steps.steam, milk, nil)
		case drink.Steams():
			pressed := make(chan ticket, or(v.Buffers.Steamer, buffer))
			s.staff(machines("espresso"), steps.press, ground, pressed)
			s.staff(machines("steamer"), steps.steam, pressed, nil)
		default:
			s.staff(machines("espresso"), steps.press, ground, nil)
		}
	}
	return s
}

// Crew returns a function giving the machines of one stage of one line of
// a pipeline of lines lines, made by newMachine: copies' number of each
// kind (one by default), named kind if the shop has one and kind#1,
// kind#2, … across the lines if more. coffee's pipelines and the model's
// staff their stages with it.
func Crew[M any](lines int, copies Machines, newMachine func(name string) M) func(kind string) []M {
	made := map[string]int{}
	return func(kind string) []M {
		n := or(copies.Kind(kind), 1)
		var ms []M
		for range n {
			made[kind]++
			name := kind
			if lines*n > 1 {
				name = fmt.Sprintf("%s#%d", kind, made[kind])
			}
			ms = append(ms, newMachine(name))
		}
		return ms
	}
}

// crewNames is Crew of coffee's machines, on the clock of steps.
func crewNames(lines int, copies Machines, steps Steps) func(kind string) []*Machine {
	return Crew(lines, copies, func(name string) *Machine { return newMachine(name, steps.Clock) })
}
