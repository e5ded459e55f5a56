package meter

import (
	"cmp"
	"sync"
)

// Mutex is a sync.Mutex that counts its uses, holds and waits; its zero
// value is an unlocked mutex named "mutex". It must not be copied after
// first use.
type Mutex struct {
	mu   sync.Mutex
	name string
	x    exclusive
	// The counters end the struct, so that a meter allocated next does not
	// start on their line.
	_ [64]byte
}

// NewMutex returns an unlocked Mutex with the given name.
func NewMutex(name string) *Mutex { return &Mutex{name: name} }

// Lock locks m, reading the clock before taking a free lock so as not to
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

// Unlock unlocks m (a stretched one spins first), then counts the use
// outside the critical section: about one clock read more than it.
func (m *Mutex) Unlock() {
	acquired, wait := m.x.leaving()
	m.mu.Unlock()
	m.x.count(now()-acquired, wait)
}

// Stretch makes later critical sections s.Extra longer; call it before
// the mutex is shared.
func (m *Mutex) Stretch(s Stretch) { m.x.spin = s.extraLoops() }

// Name returns the name given to NewMutex, or "mutex".
func (m *Mutex) Name() string { return cmp.Or(m.name, "mutex") }

// Kind returns KindMutex.
func (m *Mutex) Kind() string { return KindMutex }

// Read returns m's totals: a use counts at Unlock, a wait at Lock.
func (m *Mutex) Read() Reading { return m.x.read() }
