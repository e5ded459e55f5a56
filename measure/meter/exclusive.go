package meter

import (
	"sync/atomic"
	"time"
)

// exclusive meters the exclusive side of a lock: a Mutex, and an
// RWMutex's writers. The lock calls took or tookAfter once it holds the
// lock, leaving before it lets go and count after.
type exclusive struct {
	// acquired is when the holder got the lock (or, uncontended, just
	// before), and wait how long it waited; both are written and read
	// only while holding it.
	acquired, wait int64
	// spin, set by Stretch before the lock is shared, is the loops
	// leaving spins before the lock is let go.
	spin int64
	// The counters, updated after the lock is let go, sit on a cache
	// line of their own, so that updating them does not take the lock's
	// line away from the goroutine that holds it next.
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
// lock and how long it waited: called while holding it, before letting
// go, so that count gets the time held from acquired to just after.
func (x *exclusive) leaving() (acquired, wait int64) {
	acquired, wait = x.acquired, x.wait
	if n := x.spin; n > 0 {
		spinLoops(n)
	}
	return acquired, wait
}

// count counts the use that leaving ended, held for held, once the lock
// is let go.
func (x *exclusive) count(held, wait int64) {
	x.held.Add(held)
	x.uses.Add(1)
	if wait > 0 {
		x.waited.Add(wait)
	}
}

// read returns the totals so far.
func (x *exclusive) read() Reading {
	return Reading{Uses: x.uses.Load(), Held: time.Duration(x.held.Load()), Waited: time.Duration(x.waited.Load())}
}
