package meter

import (
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

func TestStretchCheck(t *testing.T) {
	s, err := NewStretch()
	if err != nil || s.loopsPerNs <= 0 || s.Check() != nil {
		t.Fatalf("NewStretch() = %+v, %v; want calibrated", s, err)
	}
	for _, bad := range []Stretch{{Extra: time.Microsecond}, {loopsPerNs: 1, Extra: -1}, {loopsPerNs: 1, Frac: -0.1}, {loopsPerNs: 1, Frac: 11}, {loopsPerNs: 1, Frac: nanValue()}} {
		if bad.Check() == nil {
			t.Errorf("%+v passes Check", bad)
		}
	}
	var m Mutex
	m.Stretch(s) // no extra: a mutex stretched by nothing spins nothing
	if m.x.spin != 0 {
		t.Errorf("a stretch of nothing spins %d loops", m.x.spin)
	}
	// An RWMutex stretches its readers as its writers: a group of readers
	// stretched by nothing would cost less than its control.
	var rw RWMutex
	s.Extra = time.Microsecond
	rw.Stretch(s)
	if rw.w.spin <= 0 || rw.rSpin != rw.w.spin {
		t.Errorf("a stretched RWMutex spins %d loops a write, %d a read; want the same, above 0", rw.w.spin, rw.rSpin)
	}
	rw.RLock()
	rw.RUnlock()
	if r := rw.Readers(); r.Uses != 1 {
		t.Errorf("a stretched RLock counted %d reads, want 1", r.Uses)
	}
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

// TestKindsAsResultsReadThem: results reads an RWMutex's meter by the
// kind this package gives it.
func TestKindsAsResultsReadThem(t *testing.T) {
	if !(results.Machine{Kind: KindRWMutex}).RWMutex() || (results.Machine{Kind: KindMutex}).RWMutex() {
		t.Errorf("results.Machine.RWMutex does not read meter's kinds %q and %q", KindRWMutex, KindMutex)
	}
}
