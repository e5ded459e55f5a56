package coffee

import (
	"sync"
	"time"
)

// locking lets one customer at a time into the kitchen, for the whole
// latte; with split the customer combines outside. Its machines are
// finelocking's with no lock of their own: the kitchen's door guards them.
type locking struct {
	*fineLocking
	door  sync.Mutex
	lock  Meter // the kitchen lock, metered like a machine
	split bool
}

func newLocking(steps Steps, drink Drink, split bool) *locking {
	return &locking{fineLocking: newFineLocking(steps, drink, Machines{}, unguarded), lock: Meter{name: "kitchen"}, split: split}
}

func (s *locking) Brew() error {
	asked := time.Now()
	s.door.Lock()
	entered := time.Now()
	s.lock.waited(entered.Sub(asked))

	w := s.grinder.use(s.steps.grind())
	w += s.espresso.use(s.steps.press())
	if s.drink.Steams() {
		w += s.steamer.use(s.steps.steam())
	}
	if s.drink.Combines() && !s.split {
		w += work(s.steps.Clock, s.steps.Combine) // the combine step, timed for the lock's meter
	}

	s.lock.used(time.Since(entered), w)
	s.door.Unlock()
	if s.drink.Combines() && s.split {
		s.steps.combine()
	}
	return nil
}

func (s *locking) Meters() []*Meter {
	return append([]*Meter{&s.lock}, s.fineLocking.Meters()...)
}
