package coffee

import (
	"sync"
	"time"
	"unsafe"
)

// order is one drink going down a pipeline; its customer waits on ready
// for each branch.
type order struct {
	ready chan struct{}
}

// ticket is an order on its way to the next stage, stamped when handed
// over so that the stage can meter its wait.
type ticket struct {
	order  *order
	handed time.Time
}

// TicketBytes is the memory of one slot of a pipeline's buffered channel.
const TicketBytes = int(unsafe.Sizeof(ticket{}))

// handOff gives an order to the next stage, blocking on a full channel
// (the lesson).
func handOff(next chan<- ticket, o *order) {
	next <- ticket{order: o, handed: time.Now()}
}

// stage is one barista at one machine until in closes: take an order, do
// the step, pass it on (or tell the customer), holding the machine until
// the order is passed on.
func stage(m *Machine, d func() time.Duration, in <-chan ticket, out chan<- ticket) {
	for t := range in {
		got := time.Now()
		m.waited(got.Sub(t.handed))
		w := m.run(d())
		if out == nil {
			t.order.ready <- struct{}{}
		} else {
			handOff(out, t.order)
		}
		m.used(time.Since(got), w)
	}
}

// pipeline is a shop of stage goroutines: an order goes into heads, one
// channel a branch, and its customer waits for every branch.
type pipeline struct {
	wg     sync.WaitGroup
	meters []*Meter
	steps  Steps
	drink  Drink
	heads  []chan ticket
}

func (s *pipeline) Brew() error {
	o := &order{ready: make(chan struct{}, len(s.heads))}
	for _, h := range s.heads {
		handOff(h, o)
	}
	for range s.heads {
		<-o.ready
	}
	if s.drink.Combines() {
		s.steps.combine()
	}
	return nil
}

func (s *pipeline) Close() {
	for _, h := range s.heads {
		close(h)
	}
	s.wg.Wait()
}

// staff starts a stage for each of ms from in to out, and closes out once
// they all return.
func (s *pipeline) staff(ms []*Machine, d func() time.Duration, in <-chan ticket, out chan<- ticket) {
	var workers sync.WaitGroup
	for _, m := range ms {
		s.meters = append(s.meters, &m.Meter)
		workers.Go(func() { stage(m, d, in, out) })
	}
	s.wg.Go(func() {
		workers.Wait()
		if out != nil {
			close(out)
		}
	})
}

func (s *pipeline) Meters() []*Meter { return s.meters }
