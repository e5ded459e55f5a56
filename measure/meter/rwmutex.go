package meter

import (
	"sync"
	"sync/atomic"
	"time"
)

// RWMutex is a sync.RWMutex that counts its uses by writers and by
// readers, the time writers held it and the time each waited for it. Its
// zero value is an unlocked RWMutex named "rwmutex"; NewRWMutex names
// one. An RWMutex must not be copied after first use.
//
// Readers share the lock, so their time holding it is not a time the lock
// was unavailable; it is not recorded. What the meter shows of a design
// behind an RWMutex is the time writers hold it (all others wait
// meanwhile) and the waits.
type RWMutex struct {
	rw   sync.RWMutex
	name string
	// w meters the writers, as a Mutex is metered.
	w exclusive
	// The readers' counters, after the writers' on their cache line.
	rUses, rWaited atomic.Int64
}

// NewRWMutex returns an unlocked RWMutex with the given name.
func NewRWMutex(name string) *RWMutex { return &RWMutex{name: name} }

// Lock locks rw for writing, as sync.RWMutex.Lock does; it is timed as
// Mutex.Lock is.
func (rw *RWMutex) Lock() {
	t := now()
	if rw.rw.TryLock() {
		rw.w.took(t)
		return
	}
	rw.rw.Lock()
	rw.w.tookAfter(t)
}

// Unlock unlocks rw for writing, then counts the use, the time it was
// held and the time it was waited for, as Mutex.Unlock does.
func (rw *RWMutex) Unlock() {
	acquired, wait := rw.w.leaving()
	rw.rw.Unlock()
	rw.w.count(now()-acquired, wait)
}

// Stretch makes every later write section s.Extra longer, as
// Mutex.Stretch does; readers' sections are not stretched. Call it before
// the lock is shared.
func (rw *RWMutex) Stretch(s Stretch) { rw.w.spin = s.extraLoops() }

// RLock locks rw for reading, as sync.RWMutex.RLock does, counting the
// use and, when it had to wait for a writer, the wait.
func (rw *RWMutex) RLock() {
	rw.rUses.Add(1)
	if rw.rw.TryRLock() {
		return
	}
	asked := now()
	rw.rw.RLock()
	rw.rWaited.Add(now() - asked)
}

// RUnlock undoes one RLock call.
func (rw *RWMutex) RUnlock() { rw.rw.RUnlock() }

// Name returns the name given to NewRWMutex, or "rwmutex".
func (rw *RWMutex) Name() string { return orDefault(rw.name, "rwmutex") }

// Kind returns KindRWMutex.
func (rw *RWMutex) Kind() string { return KindRWMutex }

// Read returns rw's totals so far, readers and writers together: every
// use, the time writers held it (exclusively), every wait.
func (rw *RWMutex) Read() Reading {
	w, r := rw.Writers(), rw.Readers()
	return Reading{Uses: w.Uses + r.Uses, Held: w.Held, Waited: w.Waited + r.Waited}
}

// Writers returns the writers' totals: Lock calls, the time they held the
// lock, the time they waited for it.
func (rw *RWMutex) Writers() Reading {
	return rw.w.read()
}

// Readers returns the readers' totals: RLock calls and the time they
// waited; Held is 0, as readers share the lock.
func (rw *RWMutex) Readers() Reading {
	return Reading{Uses: rw.rUses.Load(), Waited: time.Duration(rw.rWaited.Load())}
}
