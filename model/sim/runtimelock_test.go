package sim

import (
	"testing"
	"time"
)

// lockLoop runs n threads taking the runtime's lock for 20 ns, with 15 ns
// between, for 2 ms under quirks q, and returns how many it took.
func lockLoop(n int, q Quirks) int {
	s := New(1)
	cpus := NewGoCPUs(s, n, Costs{MutexSpin: 50 * time.Nanosecond, Switch: 100 * time.Nanosecond, Wake: 5 * time.Microsecond,
		MutexHandoff: time.Microsecond, Transfer: Transfer{Socket: 40 * time.Nanosecond}})
	cpus.SetQuirks(q)
	mu := NewRuntimeMutex(s, "chan")
	count := 0
	for range n {
		s.Go(func(p *Proc) {
			for {
				cpus.Burn(p, 15)
				mu.Lock(p)
				cpus.Burn(p, 20)
				mu.Unlock(p)
				count++
			}
		})
	}
	s.Run(2 * ms)
	return count
}

// TestRuntimeMutexSpinBit: before Go 1.24 every waiting thread spins on
// the lock's line, each taking it from the holder, so that more threads
// do less; since, one spins at a time and more threads do about as much
// as a few (golang.org/issue/68578).
func TestRuntimeMutexSpinBit(t *testing.T) {
	before4, before16 := lockLoop(4, Quirks{AllSpin: true}), lockLoop(16, Quirks{AllSpin: true})
	since4, since16 := lockLoop(4, Quirks{}), lockLoop(16, Quirks{})
	t.Logf("locks taken: go1.23 %d on 4 threads, %d on 16; today %d, %d", before4, before16, since4, since16)
	if before16 >= before4 {
		t.Errorf("go1.23: %d on 16 threads, %d on 4; want fewer with more threads", before16, before4)
	}
	if since16 <= before16 {
		t.Errorf("16 threads: %d since the spin bit, %d before; want more since", since16, before16)
	}
}

// TestRuntimeMutexFifo: under fifo the lock is handed to the longest
// waiter, at no cost.
func TestRuntimeMutexFifo(t *testing.T) {
	s := New(1)
	cpus := NewCPUs(s, 3)
	mu := NewRuntimeMutex(s, "chan")
	var ends []time.Duration
	for range 3 {
		s.Go(func(p *Proc) {
			mu.Lock(p)
			cpus.Burn(p, ms)
			mu.Unlock(p)
			ends = append(ends, p.Now())
		})
	}
	s.Run(10 * ms)
	if len(ends) != 3 || ends[0] != ms || ends[1] != 2*ms || ends[2] != 3*ms {
		t.Errorf("ends %v, want 1, 2, 3 ms", ends)
	}
}
