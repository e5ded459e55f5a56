package coffee

// splitPipe is a pipeline that forks: the customer hands the order both to
// the grinder, whose line goes on to the espresso machine, and to the
// steamer, which works on the milk at the same time. The customer waits for
// both branches, then combines.
type splitPipe struct {
	crew
	steps        Steps
	coffee, milk chan ticket
}

// newSplitPipe builds the fork as v changes it: each stage's workers and
// the buffer into each stage (the milk's into the steamer).
func newSplitPipe(steps Steps, buffer int, v Variant) *splitPipe {
	s := &splitPipe{steps: steps,
		coffee: make(chan ticket, or(v.Buffers.Grinder, buffer)), milk: make(chan ticket, or(v.Buffers.Steamer, buffer))}
	ground := make(chan ticket, or(v.Buffers.Espresso, buffer))
	machines := crewNames(1, v.Copies, steps)
	s.staff(machines("grinder"), steps.grind, s.coffee, ground)
	s.staff(machines("espresso"), steps.press, ground, nil)
	s.staff(machines("steamer"), steps.steam, s.milk, nil)
	return s
}

func (s *splitPipe) Brew() error {
	o := &order{ready: make(chan struct{}, 2)}
	handOff(s.coffee, o)
	handOff(s.milk, o)
	<-o.ready
	<-o.ready
	s.steps.combine()
	return nil
}

func (s *splitPipe) Close() {
	close(s.coffee)
	close(s.milk)
	s.wg.Wait()
}
