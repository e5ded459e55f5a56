package meter

import "sync"

// Mutex is a sync.Mutex that counts its uses, the time it was held and
// the time callers waited for it. Its zero value is an unlocked mutex
// named "mutex"; NewMutex names one. A Mutex must not be copied after
// first use.
type Mutex struct {
	mu   sync.Mutex
	name string
	// x meters it: when the holder got it, the stretch, the counters.
	x exclusive
}

// NewMutex returns an unlocked Mutex with the given name.
func NewMutex(name string) *Mutex { return &Mutex{name: name} }

// Lock locks m, as sync.Mutex.Lock does. The clock is read just before
// taking a free lock, so that metering does not lengthen the critical
// section; a lock that is not free is timed from the call until held.
func (m *Mutex) Lock() {
	t := now()
	if m.mu.TryLock() {
		m.x.took(t)
		return
	}
	m.mu.Lock()
	m.x.tookAfter(t)
}

// TryLock tries to lock m without waiting, as sync.Mutex.TryLock does,
// and reports whether it did.
func (m *Mutex) TryLock() bool {
	t := now()
	if !m.mu.TryLock() {
		return false
	}
	m.x.took(t)
	return true
}

// Unlock unlocks m, as sync.Mutex.Unlock does, then counts the use, the
// time it was held and the time it was waited for. The counting happens
// after the lock is let go, so that it does not lengthen the critical
// section either: the time held is from just before the lock was taken
// (or from when it was got, after a wait) to just after it was let go,
// longer than the critical section by about one clock read.
//
// A stretched mutex (Stretch) spins before letting go, its Extra;
// unstretched, it does nothing more.
func (m *Mutex) Unlock() {
	acquired, wait := m.x.leaving()
	m.mu.Unlock()
	m.x.count(now()-acquired, wait)
}

// Stretch makes every later critical section s.Extra longer (see
// Stretcher): Unlock spins before letting go. Call it before the mutex
// is shared.
func (m *Mutex) Stretch(s Stretch) { m.x.spin = s.extraLoops() }

// Name returns the name given to NewMutex, or "mutex".
func (m *Mutex) Name() string { return orDefault(m.name, "mutex") }

// Kind returns KindMutex.
func (m *Mutex) Kind() string { return KindMutex }

// Read returns m's totals so far: a use is counted when it ends, at
// Unlock, with the time it was held; a wait when it ends, at Lock.
func (m *Mutex) Read() Reading {
	return m.x.read()
}
