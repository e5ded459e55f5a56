// Package nolock is designs that no lock limits, for TestWhyNoLock: a
// shared atomic counter, the same with a lock taken rarely, and workers
// that hand items over a channel to one goroutine. brewput why must answer
// that no lock limits any.
package nolock

import "sync/atomic"

// Spin does n dependent multiplications, about a nanosecond each.
func Spin(n int) uint64 {
	x := uint64(n)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// Counter is a counter every goroutine adds to.
type Counter struct{ n atomic.Uint64 }

// Add spins work steps and adds one bit of the result.
func (c *Counter) Add(work int) { c.n.Add(Spin(work) & 1) }

// Stage is one goroutine that takes items from a channel and spins work
// steps on each.
type Stage struct {
	in   chan uint64
	done chan struct{}
}

// NewStage starts a stage.
func NewStage(work int) *Stage {
	s := &Stage{in: make(chan uint64, 64), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for v := range s.in {
			_ = Spin(work) ^ v
		}
	}()
	return s
}

// Send hands v to the stage.
func (s *Stage) Send(v uint64) { s.in <- v }

// Close waits for every item sent to pass the stage and stops it.
func (s *Stage) Close() {
	close(s.in)
	<-s.done
}
