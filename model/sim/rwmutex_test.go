package sim

import (
	"testing"
	"time"
)

// TestRWMutexFifo: readers hold it together; a writer waits for the
// readers in, and readers that come while it waits wait for it.
func TestRWMutexFifo(t *testing.T) {
	s := New(1)
	cpus := NewCPUs(s, 4)
	rw := NewRWMutex(s, "rw")
	done := map[string]time.Duration{}
	read := func(name string, at time.Duration) {
		s.Go(func(p *Proc) {
			p.Sleep(at)
			rw.RLock(p)
			cpus.Burn(p, ms)
			rw.RUnlock(p)
			done[name] = p.Now()
		})
	}
	read("r1", 0)
	read("r2", 0)
	s.Go(func(p *Proc) {
		p.Sleep(ms / 2)
		rw.Lock(p)
		cpus.Burn(p, ms)
		rw.Unlock(p)
		done["w"] = p.Now()
	})
	read("r3", 3*ms/4) // after the writer asked
	s.Run(10 * ms)
	want := map[string]time.Duration{"r1": ms, "r2": ms, "w": 2 * ms, "r3": 3 * ms}
	for k, v := range want {
		if done[k] != v {
			t.Errorf("%s done at %v, want %v (all: %v)", k, done[k], v, done)
		}
	}
}

// TestRWMutexReadersShareALine: under the go policy readers on many cores
// wait for none of each other, yet every RLock and RUnlock writes the
// reader count, so that readers of an empty section do no more on eight
// cores than on two.
func TestRWMutexReadersShareALine(t *testing.T) {
	reads := func(n int) int {
		s := New(1)
		cpus := NewGoCPUs(s, n, Costs{Transfer: Transfer{Socket: 40 * time.Nanosecond}})
		rw := NewRWMutex(s, "rw")
		count := 0
		for range n {
			s.Go(func(p *Proc) {
				for {
					cpus.Burn(p, 5)
					rw.RLock(p)
					cpus.Burn(p, 5)
					rw.RUnlock(p)
					count++
				}
			})
		}
		s.Run(200 * time.Microsecond)
		return count
	}
	one, two, eight := reads(1), reads(2), reads(8)
	if two >= 2*one || float64(eight) > 1.1*float64(two) {
		t.Errorf("readers: %d read sections on 1 core, %d on 2, %d on 8; want fewer than twice on 2 and no more on 8", one, two, eight)
	}
}
