package sim

import (
	"testing"
	"time"
)

// TestMutexStarvingHandsOverToPending: a starving Unlock that finds its
// waiter counted but not yet queued hands the mutex to it through the
// semaphore's token, so that two goroutines hammering a short hold go on
// taking it, whatever the seed; freed in starvation mode, it would wait
// for an Unlock that never comes.
func TestMutexStarvingHandsOverToPending(t *testing.T) {
	costs := Costs{Switch: 58, Wake: 22704, SpinWake: 17239, MutexHandoff: 526, ChanHandoff: 1668, BufChanHandoff: 1552,
		RunnextGrace: 76389, MutexSpin: 731, RuntimeLock: 11, Transfer: Transfer{Socket: 20 * time.Nanosecond}}
	for seed := uint64(1); seed <= 12; seed++ {
		s := New(seed)
		cpus := NewGoCPUs(s, 2, costs)
		m := NewMutex(s, "mu")
		var ops [2]int
		for i := range ops {
			s.Go(func(p *Proc) {
				for {
					cpus.Burn(p, time.Nanosecond)
					m.Lock(p)
					cpus.Burn(p, 25*time.Nanosecond)
					m.Unlock(p)
					ops[i]++
				}
			})
		}
		s.RunUntil(3 * time.Millisecond)
		early := ops[0] + ops[1]
		s.Run(6 * time.Millisecond)
		if late := ops[0] + ops[1] - early; late == 0 || ops[0] == 0 || ops[1] == 0 {
			t.Errorf("seed %d: %d operations in the last 3 ms, %v by each goroutine (starving %v, %d queued, %d counted); want both going on",
				seed, late, ops, m.starving, m.waiters.len(), m.counted)
		}
	}
}
