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

func newSplitPipe(steps Steps, buffer int) *splitPipe {
	s := &splitPipe{steps: steps, coffee: make(chan ticket, buffer), milk: make(chan ticket, buffer)}
	ground := make(chan ticket, buffer)
	s.staff(newMachine("grinder", steps.Clock), steps.grind, s.coffee, ground)
	s.staff(newMachine("espresso", steps.Clock), steps.press, ground, nil)
	s.staff(newMachine("steamer", steps.Clock), steps.steam, s.milk, nil)
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
