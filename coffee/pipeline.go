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
// the step, pass it on (or tell the customer). The machine is held until
// the order is passed on: a barista who cannot hand it over stands holding
// it.
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

// crew starts and stops a pipeline's goroutines.
type crew struct {
	wg     sync.WaitGroup
	meters []*Meter
}

// staff starts a stage for each of ms from in to out, and closes out once
// they all return.
func (c *crew) staff(ms []*Machine, d func() time.Duration, in <-chan ticket, out chan<- ticket) {
	var workers sync.WaitGroup
	for _, m := range ms {
		c.meters = append(c.meters, &m.Meter)
		workers.Go(func() { stage(m, d, in, out) })
	}
	c.wg.Go(func() {
		workers.Wait()
		if out != nil {
			close(out)
		}
	})
}

func (c *crew) Meters() []*Meter { return c.meters }
