package meter

import (
	"sync/atomic"
	"time"
)

// exclusive meters a Mutex or an RWMutex's writers: the lock calls took or
// tookAfter once held, leaving before letting go and count after.
type exclusive struct {
	// When the holder got the lock (uncontended, just before) and how long
	// it waited: touched only while holding it.
	acquired, wait int64
	spin           int64 // the loops leaving spins (Stretch)
	// The counters, updated after letting go, sit on a cache line of their
	// own, so as not to take the lock's line from its next holder.
	_      [64]byte
	uses   atomic.Int64
	held   atomic.Int64
	waited atomic.Int64
}

// took records a lock taken at t without waiting.
func (x *exclusive) took(t int64) { x.acquired, x.wait = t, 0 }

// tookAfter records a lock taken now after waiting since t.
func (x *exclusive) tookAfter(t int64) {
	x.acquired = now()
	x.wait = x.acquired - t
}

// leaving spins the stretch, if any, and returns when the holder got the
// lock and how long it waited, for count after letting go.
func (x *exclusive) leaving() (acquired, wait int64) {
	acquired, wait = x.acquired, x.wait
	if n := x.spin; n > 0 {
		spinLoops(n)
	}
	return acquired, wait
}

// count counts the use that leaving ended, held for held.
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
