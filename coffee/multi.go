package coffee

import (
	"fmt"
	"time"
)

// pool is a buffered channel of the free machines of one kind: a customer
// takes one out, uses it, and puts it back. The channel is both the queue
// and the lock.
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

// use takes a free machine from the pool, runs one step on it, and puts
// it back; the machine is held from taking it to putting it back.
func (p pool) use(d time.Duration) time.Duration {
	asked := time.Now()
	m := <-p
	got := time.Now()
	m.waited(got.Sub(asked))
	w := m.run(d)
	m.used(time.Since(got), w)
	p <- m
	return w
}
