package meter

import (
	"testing"
	"unsafe"
)

// A meter's counters, written at every Unlock after the lock is let go,
// end at least a cache line before the meter does: meters made one after
// another (a lock per goroutine's, a shard's) would otherwise put one's
// counters on the line of the next one's lock word, written by another
// CPU, and a design whose locks share nothing would scale as if they did
// (validation/truth's lock per goroutine: 3.9× on 16 CPUs so, 12.5× apart).
func TestMetersKeepTheirLines(t *testing.T) {
	const line = 64
	var m Mutex
	end := unsafe.Offsetof(m.x) + unsafe.Offsetof(m.x.waited) + unsafe.Sizeof(m.x.waited)
	if unsafe.Sizeof(m)-end < line {
		t.Errorf("Mutex: counters end at byte %d of %d; want a line (%d bytes) after them", end, unsafe.Sizeof(m), line)
	}
	var rw RWMutex
	end = unsafe.Offsetof(rw.rSpin) + unsafe.Sizeof(rw.rSpin)
	if unsafe.Sizeof(rw)-end < line {
		t.Errorf("RWMutex: counters end at byte %d of %d; want a line (%d bytes) after them", end, unsafe.Sizeof(rw), line)
	}
	if lock := unsafe.Offsetof(m.x) + unsafe.Offsetof(m.x.uses); lock < line {
		t.Errorf("Mutex: counters from byte %d; want them a line from its lock's word", lock)
	}
}
