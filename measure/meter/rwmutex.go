package meter

import (
	"cmp"
	"sync"
	"sync/atomic"
	"time"
)

// RWMutex is a sync.RWMutex that counts writers' and readers' uses, the
// writers' holds and everyone's waits (readers share the lock, so their
// holds are not). Its zero value is an unlocked RWMutex named "rwmutex".
// It must not be copied after first use.
type RWMutex struct {
	rw             sync.RWMutex
	name           string
	w              exclusive    // the writers, metered as a Mutex
	rUses, rWaited atomic.Int64 // after the writers' counters, on their line
	rSpin          int64        // the loops a reader spins once it holds the lock (Stretch)
	_              [64]byte     // as Mutex's: the next meter's line apart
}

// NewRWMutex returns an unlocked RWMutex with the given name.
func NewRWMutex(name string) *RWMutex { return &RWMutex{name: name} }

// Lock locks rw for writing, timed as Mutex.Lock is.
func (rw *RWMutex) Lock() {
	t := now()
	if rw.rw.TryLock() {
		rw.w.took(t)
		return
	}
	rw.rw.Lock()
	rw.w.tookAfter(t)
}

// Unlock unlocks rw for writing and counts as Mutex.Unlock does.
func (rw *RWMutex) Unlock() {
	acquired, wait := rw.w.leaving()
	rw.rw.Unlock()
	rw.w.count(now()-acquired, wait)
}

// Stretch makes later sections, writers' and readers', s.Extra longer: a
// stretched read delays only writers, as a longer read would. Call it
// before the lock is shared.
func (rw *RWMutex) Stretch(s Stretch) { rw.w.spin, rw.rSpin = s.extraLoops(), s.extraLoops() }

// RLock locks rw for reading, counting the use and any wait.
func (rw *RWMutex) RLock() {
	rw.rUses.Add(1)
	if rw.rw.TryRLock() {
		rw.readerSpin()
		return
	}
	asked := now()
	rw.rw.RLock()
	rw.rWaited.Add(now() - asked)
	rw.readerSpin()
}

// readerSpin spins a stretched reader's extra time, holding the lock.
func (rw *RWMutex) readerSpin() {
	if n := rw.rSpin; n > 0 {
		spinLoops(n)
	}
}

// RUnlock undoes one RLock call.
func (rw *RWMutex) RUnlock() { rw.rw.RUnlock() }

// Name returns the name given to NewRWMutex, or "rwmutex".
func (rw *RWMutex) Name() string { return cmp.Or(rw.name, "rwmutex") }

// Kind returns KindRWMutex.
func (rw *RWMutex) Kind() string { return KindRWMutex }

// Read returns rw's totals so far, readers and writers together.
func (rw *RWMutex) Read() Reading {
	w, r := rw.Writers(), rw.Readers()
	return Reading{Uses: w.Uses + r.Uses, Held: w.Held, Waited: w.Waited + r.Waited}
}

// Writers returns the writers' totals.
func (rw *RWMutex) Writers() Reading { return rw.w.read() }

// Readers returns the readers' totals; Held is 0.
func (rw *RWMutex) Readers() Reading {
	return Reading{Uses: rw.rUses.Load(), Waited: time.Duration(rw.rWaited.Load())}
}
