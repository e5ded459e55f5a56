package coffee

import (
	"sync"
	"time"
)

// locking puts all the machines in one small kitchen and lets one customer
// in at a time, for the whole latte. Throughput cannot pass one latte per
// latte-time, whatever the number of CPUs.
type locking struct {
	kitchen
	door sync.Mutex
	lock Meter // the kitchen lock, metered like a machine
}

func newLocking(steps Steps) *locking {
	return &locking{kitchen: newKitchen(steps, Latte), lock: Meter{name: "kitchen"}}
}

func (s *locking) Brew() error {
	asked := time.Now()
	s.door.Lock()
	entered := time.Now()
	s.lock.waited(entered.Sub(asked))

	s.grinder.use(s.steps.grind())
	s.espresso.use(s.steps.press())
	s.steamer.use(s.steps.steam())
	s.steps.combine()

	s.lock.worked(time.Since(entered))
	s.door.Unlock()
	return nil
}

func (s *locking) Meters() []*Meter {
	return append([]*Meter{&s.lock}, s.kitchen.Meters()...)
}
