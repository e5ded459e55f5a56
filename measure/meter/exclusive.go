package meter

import (
	"sync/atomic"
	"time"
)

// exclusive meters a Mutex or an RWMutex's writers: took or tookAfter once
// held, leaving before letting go, count after.
type exclusive struct {
	// acquired and wait are touched only while holding the lock.
	acquired, wait int64
	spin           int64 // the loops leaving spins (Stretch)
	// The counters, updated after letting go, sit on a line of their own, so
	// as not to take the lock's line from its next holder.
	_      [64]byte
	uses   atomic.Int64
	held   atomic.Int64
	waited atomic.Int64
}

func (x *exclusive) took(t int64) { x.acquired, x.wait = t, 0 }

func (x *exclusive) tookAfter(t int64) {
	x.acquired = now()
	x.wait = x.acquired - t
}

// leaving spins the stretch and returns when the lock was got and how
// long it waited, for count.
func (x *exclusive) leaving() (acquired, wait int64) {
	acquired, wait = x.acquired, x.wait
	if n := x.spin; n > 0 {
		spinLoops(n)
	}
	return acquired, wait
}

func (x *exclusive) count(held, wait int64) {
	x.held.Add(held)
	x.uses.Add(1)
	if wait > 0 {
		x.waited.Add(wait)
	}
}

func (x *exclusive) read() Reading {
	return Reading{Uses: x.uses.Load(), Held: time.Duration(x.held.Load()), Waited: time.Duration(x.waited.Load())}
}
