package coffee

import (
	"sync"
	"time"
)

// locking puts all the machines in one small kitchen and lets one customer
// in at a time, for the whole latte. Throughput cannot pass one latte per
// latte-time, whatever the number of CPUs. Split (a Variant) lets the
// customer combine outside, holding the lock for the machines only.
type locking struct {
	kitchen
	door  sync.Mutex
	lock  Meter // the kitchen lock, metered like a machine
	split bool
}

func newLocking(steps Steps) *locking {
	return &locking{kitchen: newKitchen(steps, Latte), lock: Meter{name: "kitchen"}}
}

func (s *locking) Brew() error {
	asked := time.Now()
	s.door.Lock()
	entered := time.Now()
	s.lock.waited(entered.Sub(asked))

	w := s.grinder.use(s.steps.grind())
	w += s.espresso.use(s.steps.press())
	w += s.steamer.use(s.steps.steam())
	if !s.split {
		w += work(s.steps.Clock, s.steps.Combine) // the combine step, timed for the lock's meter
	}

	s.lock.used(time.Since(entered), w)
	s.door.Unlock()
	if s.split {
		s.steps.combine()
	}
	return nil
}

func (s *locking) Meters() []*Meter {
	return append([]*Meter{&s.lock}, s.kitchen.Meters()...)
}
