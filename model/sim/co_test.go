package sim

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// churn is a model where processes come and go: every 100 µs a parent
// starts a customer, which takes a lock, burns (50 µs on average), hands a value over an
// unbuffered channel to a server, and finishes; one customer in five
// instead waits forever on a channel nobody sends on. Every customer
// counts its deferred call. It returns the trace of what happened, for
// comparing runs.
func churn(s *Sim, c *CPUs, trace *[]string, deferred *int) {
	m := NewMutex(s, "m")
	orders := NewChan[int](s, 0)
	never := NewChan[int](s, 0)
	s.Go(func(p *Proc) {
		for {
			v := orders.Recv(p)
			c.Burn(p, time.Duration(20+p.Sim().Rand().IntN(30))*time.Microsecond)
			*trace = append(*trace, fmt.Sprint("served ", v, " at ", p.Now()))
		}
	})
	s.Go(func(p *Proc) {
		for i := 0; ; i++ {
			s.Go(func(p *Proc) {
				defer func() { *deferred++ }()
				if i%5 == 4 {
					never.Recv(p)
					return
				}
				m.Lock(p)
				c.Burn(p, time.Duration(20+p.Sim().Rand().IntN(60))*time.Microsecond)
				m.Unlock(p)
				orders.Send(p, i)
				*trace = append(*trace, fmt.Sprint("done ", i, " by ", p.ID(), " at ", p.Now()))
			})
			p.Sleep(100 * time.Microsecond)
		}
	})
}

// TestChurnReusesCoroutines: processes that finish leave their coroutine
// to the next process started, so a long run of short-lived processes
// needs about as many coroutines as processes alive at once, not one per
// process; and the run is the same for the same seed, under both
// policies.
func TestChurnReusesCoroutines(t *testing.T) {
	for _, policy := range []string{"fifo", "go"} {
		run := func(seed uint64) (trace []string, started, coroutines, deferred int) {
			s := New(seed)
			c := NewCPUs(s, 2)
			if policy == "go" {
				c = NewGoCPUs(s, 2, Costs{Switch: 200 * time.Nanosecond, Wake: 5 * time.Microsecond, MutexHandoff: 300 * time.Nanosecond, ChanHandoff: 400 * time.Nanosecond})
			}
			churn(s, c, &trace, &deferred)
			s.RunUntil(100 * ms)
			started, coroutines = s.NextID(), len(s.cos)
			s.Stop()
			if deferred != started-2 { // every customer's: those that finished, and those unwound
				t.Errorf("%s: %d deferred calls for %d customers", policy, deferred, started-2)
			}
			return trace, started, coroutines, deferred
		}
		a, started, coroutines, _ := run(1)
		b, _, _, _ := run(1)
		c, _, _, _ := run(2)
		if len(a) < 500 || !slices.Equal(a, b) {
			t.Errorf("%s: same seed, different runs (%d and %d lines)", policy, len(a), len(b))
		}
		if slices.Equal(a, c) {
			t.Errorf("%s: different seeds gave the same run", policy)
		}
		// A fifth of the customers stay blocked, each holding its
		// coroutine; the others finish within a few hundred µs.
		t.Logf("%s: %d coroutines, %d started", policy, coroutines, started)
		if limit := started/5 + 20; coroutines > limit {
			t.Errorf("%s: %d coroutines for %d processes started, want at most %d", policy, coroutines, started, limit)
		}
	}
}

// TestPanicAmidChurn: a process that panics while many others are blocked
// (parked in one another's coroutines, as switches leave them) surfaces
// from Run, and every other process is unwound, its deferred call run.
func TestPanicAmidChurn(t *testing.T) {
	s := New(1)
	c := NewCPUs(s, 3)
	var trace []string
	deferred := 0
	churn(s, c, &trace, &deferred)
	s.Go(func(p *Proc) {
		p.Sleep(37 * ms)
		c.Burn(p, ms)
		panic(errors.New("boom"))
	})
	started := 0
	err := func() (err error) {
		defer func() {
			started = s.NextID()
			if r := recover(); r != nil {
				err, _ = r.(error)
			}
		}()
		s.Run(time.Second)
		return nil
	}()
	var pp *ProcessPanic
	if !errors.As(err, &pp) || pp.At != 38*ms || pp.Process != 2 {
		t.Fatalf("Run ended with %v, want process 2's panic at 38ms", err)
	}
	if customers := started - 3; deferred != customers {
		t.Errorf("%d deferred calls for %d customers", deferred, customers)
	}
}

// TestStartedOnIdleCoroutineNeverRun: a process started on the coroutine
// of a finished one, whose first event is past the end, is dropped
// without running.
func TestStartedOnIdleCoroutineNeverRun(t *testing.T) {
	s := New(1)
	s.Go(func(p *Proc) { p.Sleep(ms) })
	s.RunUntil(2 * ms)
	if len(s.idle) != 1 {
		t.Fatalf("%d idle coroutines after a process finished, want 1", len(s.idle))
	}
	s.Go(func(p *Proc) { t.Error("ran") })
	if len(s.idle) != 0 || len(s.cos) != 1 {
		t.Errorf("the new process did not take the idle coroutine: %d idle, %d in all", len(s.idle), len(s.cos))
	}
	s.Stop()
}
