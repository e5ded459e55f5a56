package coffee

import (
	"sync"
	"time"
	"unsafe"
)

// order is one drink travelling down a pipeline. The customer who placed it
// waits on ready for each branch that finishes it.
type order struct {
	ready chan struct{}
}

// ticket is an order on its way to the next stage, stamped with the moment
// it was handed over, so that the stage can meter how long it waited.
type ticket struct {
	order  *order
	handed time.Time
}

// TicketBytes is the memory one slot of a pipeline's buffered channel
// holds: one order's ticket. What a buffer costs is its slots times this.
const TicketBytes = int(unsafe.Sizeof(ticket{}))

// handOff gives an order to the next stage; a full (or unbuffered) channel
// blocks the sender, which is the point of the lesson.
func handOff(next chan<- ticket, o *order) {
	next <- ticket{order: o, handed: time.Now()}
}

// stage is one barista at one machine: take an order, do the step, pass the
// order on (or, at the end of the line, tell the customer it is ready). It
// returns when its input is closed. The machine is held from taking the
// order to having passed it on: a barista who cannot hand the order over
// stands holding it, and the machine takes no other.
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

// staff starts a stage goroutine for each of ms, all taking orders from in
// and passing them to out, which is closed once in is closed and every one
// of them has returned.
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
