package coffee

import (
	"fmt"
	"time"
)

// multi has n copies of each machine. The copies of a kind wait in a
// buffered channel: a customer takes one out, uses it, and puts it back.
// The channel is both the queue and the lock.
type multi struct {
	steps                         Steps
	grinders, espressos, steamers chan *Machine
	meters                        []*Meter
}

func newMulti(steps Steps, n int) *multi {
	s := &multi{steps: steps}
	s.grinders = s.stock("grinder", n)
	s.espressos = s.stock("espresso", n)
	s.steamers = s.stock("steamer", n)
	return s
}

// stock fills a channel with n machines of one kind.
func (s *multi) stock(kind string, n int) chan *Machine {
	pool := make(chan *Machine, n)
	for i := 1; i <= n; i++ {
		m := newMachine(fmt.Sprintf("%s#%d", kind, i), s.steps.Clock)
		s.meters = append(s.meters, &m.Meter)
		pool <- m
	}
	return pool
}

func (s *multi) Brew() error {
	useOne(s.grinders, s.steps.grind())
	useOne(s.espressos, s.steps.press())
	useOne(s.steamers, s.steps.steam())
	s.steps.combine()
	return nil
}

// useOne takes a free machine from the pool, runs one step on it, and puts
// it back.
func useOne(pool chan *Machine, d time.Duration) {
	asked := time.Now()
	m := <-pool
	m.waited(time.Since(asked))
	m.use(d)
	pool <- m
}

func (s *multi) Meters() []*Meter { return s.meters }

func (s *multi) Close() {}
