package coffee

// newSplitPipe builds a pipeline that forks: the customer hands the order
// both to the grinder, whose line goes on to the espresso machine, and to
// the steamer, which works on the milk at the same time. v changes each
// stage's workers and the buffer into each (the milk's into the steamer).
func newSplitPipe(steps Steps, buffer int, v Variant) *pipeline {
	coffee, milk := make(chan ticket, or(v.Buffers.Grinder, buffer)), make(chan ticket, or(v.Buffers.Steamer, buffer))
	s := &pipeline{steps: steps, drink: Latte, heads: []chan ticket{coffee, milk}}
	ground := make(chan ticket, or(v.Buffers.Espresso, buffer))
	machines := crewNames(1, v.Copies, steps)
	s.staff(machines("grinder"), steps.grind, coffee, ground)
	s.staff(machines("espresso"), steps.press, ground, nil)
	s.staff(machines("steamer"), steps.steam, milk, nil)
	return s
}
