package meter

import "sync"

// Mutex is a sync.Mutex that counts its uses, the time it was held and
// the time callers waited for it. Its zero value is an unlocked mutex
// named "mutex". A Mutex must not be copied after first use.
type Mutex struct {
	mu   sync.Mutex
	name string
	x    exclusive
	// The counters end the struct: a meter allocated next (a lock per
	// goroutine's, a shard's) would start on their line, its lock's word
	// written by another CPU than theirs.
	_ [64]byte
}

// NewMutex returns an unlocked Mutex with the given name.
func NewMutex(name string) *Mutex { return &Mutex{name: name} }

// Lock locks m. The clock is read before taking a free lock, so as not to
// lengthen the critical section; a wait is timed from the call.
func (m *Mutex) Lock() {
	t := now()
	if m.mu.TryLock() {
		m.x.took(t)
		return
	}
	m.mu.Lock()
	m.x.tookAfter(t)
}

// TryLock tries to lock m without waiting and reports whether it did.
func (m *Mutex) TryLock() bool {
	t := now()
	if !m.mu.TryLock() {
		return false
	}
	m.x.took(t)
	return true
}

// Unlock unlocks m (a stretched one spins its Extra first), then counts
// the use outside the critical section: held from just before the lock
// was taken to just after it was let go, about one clock read more than
// the section.
func (m *Mutex) Unlock() {
	acquired, wait := m.x.leaving()
	m.mu.Unlock()
	m.x.count(now()-acquired, wait)
}

// Stretch makes every later critical section s.Extra longer. Call it
// before the mutex is shared.
func (m *Mutex) Stretch(s Stretch) { m.x.spin = s.extraLoops() }

// Name returns the name given to NewMutex, or "mutex".
func (m *Mutex) Name() string { return orDefault(m.name, "mutex") }

// Kind returns KindMutex.
func (m *Mutex) Kind() string { return KindMutex }

// Read returns m's totals so far: a use counts at Unlock, a wait at Lock.
func (m *Mutex) Read() Reading {
	return m.x.read()
}
