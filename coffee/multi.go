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
	grinders, espressos, steamers pool
	meters                        []*Meter
}

// newMulti has copies' number of each kind, n for a kind it leaves 0.
func newMulti(steps Steps, n int, copies Machines) *multi {
	s := &multi{steps: steps}
	s.grinders = stock("grinder", or(copies.Grinder, n), steps, &s.meters)
	s.espressos = stock("espresso", or(copies.Espresso, n), steps, &s.meters)
	s.steamers = stock("steamer", or(copies.Steamer, n), steps, &s.meters)
	return s
}

// pool is a buffered channel of the free machines of one kind.
type pool chan *Machine

// stock fills a pool with n machines of one kind, kind#1 to kind#n, adding
// their meters to meters.
func stock(kind string, n int, steps Steps, meters *[]*Meter) pool {
	p := make(pool, n)
	for i := 1; i <= n; i++ {
		m := newMachine(fmt.Sprintf("%s#%d", kind, i), steps.Clock)
		*meters = append(*meters, &m.Meter)
		p <- m
	}
	return p
}

func (s *multi) Brew() error {
	s.grinders.use(s.steps.grind())
	s.espressos.use(s.steps.press())
	s.steamers.use(s.steps.steam())
	s.steps.combine()
	return nil
}

// use takes a free machine from the pool, runs one step on it, and puts
// it back; the machine is held from taking it to putting it back.
func (p pool) use(d time.Duration) {
	asked := time.Now()
	m := <-p
	got := time.Now()
	m.waited(got.Sub(asked))
	w := m.run(d)
	m.used(time.Since(got), w)
	p <- m
}

func (s *multi) Meters() []*Meter { return s.meters }

func (s *multi) Close() {}
