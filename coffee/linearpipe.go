package coffee

import "fmt"

// newPipeline builds an assembly line (linearpipe): one goroutine per
// machine, connected by channels with room for buffer orders; the customer
// hands in an order, waits for it, then combines. multipipe-N is N lines
// sharing one order queue; forked, it is splitpipe, the milk on its own
// channel. v changes each stage's workers and the buffer into it.
func newPipeline(steps Steps, drink Drink, buffer, lines int, forked bool, v Variant) *pipeline {
	orders := make(chan ticket, or(v.Buffers.Grinder, buffer))
	s := &pipeline{steps: steps, drink: drink, heads: []chan ticket{orders}}
	var milk chan ticket
	if forked {
		milk = make(chan ticket, or(v.Buffers.Steamer, buffer))
		s.heads = append(s.heads, milk)
	}
	machines := crew(lines, v.Copies, steps)
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

// crew returns a function giving the machines of one stage of one line:
// copies' number of each kind (one by default), named kind if the shop has
// one and kind#1, kind#2, … across the lines if more.
func crew(lines int, copies Machines, steps Steps) func(kind string) []*Machine {
	made := map[string]int{}
	return func(kind string) []*Machine {
		n := or(copies.Kind(kind), 1)
		var ms []*Machine
		for range n {
			made[kind]++
			name := kind
			if lines*n > 1 {
				name = fmt.Sprintf("%s#%d", kind, made[kind])
			}
			ms = append(ms, newMachine(name, steps.Clock))
		}
		return ms
	}
}
