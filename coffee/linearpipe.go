package coffee

import "fmt"

// linearPipe is an assembly line: one goroutine per machine, connected by
// channels with room for `buffer` orders. The customer hands in an order,
// waits for it to come off the line, then combines. With no buffer, a
// barista who finishes early stands holding the grounds until the next one
// is free; a buffer is counter space to put them down.
//
// The same line without the steamer makes americanopipe and espressopipe.
//
// multipipe-N is n such lines sharing one order queue.
type linearPipe struct {
	crew
	steps  Steps
	drink  Drink
	orders chan ticket
}

func newLinearPipe(steps Steps, drink Drink, buffer, lines int) *linearPipe {
	s := &linearPipe{steps: steps, drink: drink, orders: make(chan ticket, buffer)}
	for i := 1; i <= lines; i++ {
		name := func(kind string) string {
			if lines == 1 {
				return kind
			}
			return fmt.Sprintf("%s#%d", kind, i)
		}
		ground := make(chan ticket, buffer)
		s.staff(newMachine(name("grinder"), steps.Clock), steps.grind, s.orders, ground)
		if !drink.Steams() {
			s.staff(newMachine(name("espresso"), steps.Clock), steps.press, ground, nil)
			continue
		}
		pressed := make(chan ticket, buffer)
		s.staff(newMachine(name("espresso"), steps.Clock), steps.press, ground, pressed)
		s.staff(newMachine(name("steamer"), steps.Clock), steps.steam, pressed, nil)
	}
	return s
}

func (s *linearPipe) Brew() error {
	o := &order{ready: make(chan struct{}, 1)}
	handOff(s.orders, o)
	<-o.ready
	if s.drink.Combines() {
		s.steps.combine()
	}
	return nil
}

func (s *linearPipe) Close() {
	close(s.orders)
	s.wg.Wait()
}
