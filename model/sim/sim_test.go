package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// goleak checks after all tests that every Run unwound its coroutines.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ms = time.Millisecond

// TestEqualTimeEventsFIFO: events of the same virtual time run in the
// order they were scheduled, and earlier times first.
func TestEqualTimeEventsFIFO(t *testing.T) {
	s := New(1)
	var got []string
	for i := range 5 {
		s.Go(func(p *Proc) {
			got = append(got, fmt.Sprint("start", i))
			p.Sleep(time.Duration(2-i%2) * ms) // odd ones wake at 1 ms, even ones at 2 ms
			got = append(got, fmt.Sprint(i, "@", p.Now()))
		})
	}
	s.Run(10 * ms)
	want := []string{"start0", "start1", "start2", "start3", "start4",
		"1@1ms", "3@1ms", "0@2ms", "2@2ms", "4@2ms"}
	if !slices.Equal(got, want) {
		t.Errorf("order\n got %v\nwant %v", got, want)
	}
	if s.Now() != 10*ms {
		t.Errorf("Now after Run(10ms) = %v", s.Now())
	}
}

// TestRunUntilIncludesEdgeAndContinues: RunUntil runs the events at its
// limit, stops short of later ones, and a later RunUntil goes on.
func TestRunUntilIncludesEdgeAndContinues(t *testing.T) {
	s := New(1)
	var at []time.Duration
	s.Go(func(p *Proc) {
		for {
			p.Sleep(ms)
			at = append(at, p.Now())
		}
	})
	s.RunUntil(3 * ms)
	if !slices.Equal(at, []time.Duration{ms, 2 * ms, 3 * ms}) {
		t.Errorf("after RunUntil(3ms): %v", at)
	}
	s.Run(5 * ms)
	if len(at) != 5 || at[4] != 5*ms {
		t.Errorf("after Run(5ms): %v", at)
	}
}

// TestMutexHandoffOrder: a contended mutex goes to its waiters in the order
// they asked, each as the previous holder unlocks.
func TestMutexHandoffOrder(t *testing.T) {
	s := New(1)
	m := NewMutex(s, "grinder")
	var got []string
	for i := range 4 {
		s.Go(func(p *Proc) {
			p.Sleep(time.Duration(i) * time.Microsecond) // ask in order 0, 1, 2, 3
			m.Lock(p)
			got = append(got, fmt.Sprint(i, "@", p.Now()))
			p.Sleep(ms)
			m.Unlock(p)
		})
	}
	s.Run(time.Second)
	want := []string{"0@0s", "1@1ms", "2@2ms", "3@3ms"}
	if !slices.Equal(got, want) {
		t.Errorf("lock order\n got %v\nwant %v", got, want)
	}
}

// TestUnlockOfUnlockedMutexPanics: as with sync.Mutex, unlocking an
// unlocked mutex is a bug, reported as a process panic.
func TestUnlockOfUnlockedMutexPanics(t *testing.T) {
	s := New(1)
	m := NewMutex(s, "steamer")
	s.Go(func(p *Proc) { m.Unlock(p) })
	err := runRecover(s, ms)
	if err == nil || !strings.Contains(err.Error(), "unlock of unlocked mutex steamer") {
		t.Errorf("got %v, want a panic about the unlocked mutex", err)
	}
}

// TestUnbufferedRendezvous: a send on an unbuffered channel does not
// return before a receiver has taken the value, whichever side comes first.
func TestUnbufferedRendezvous(t *testing.T) {
	s := New(1)
	c := NewChan[int](s, 0)
	var log []string
	// Sender first: it waits until the receiver comes at 5 ms.
	s.Go(func(p *Proc) {
		c.Send(p, 42)
		log = append(log, fmt.Sprint("sent 42 @", p.Now()))
		p.Sleep(15 * ms) // receiver first at 15 ms: the sender comes at 20 ms
		c.Send(p, 7)
		log = append(log, fmt.Sprint("sent 7 @", p.Now()))
	})
	s.Go(func(p *Proc) {
		p.Sleep(5 * ms)
		v := c.Recv(p)
		log = append(log, fmt.Sprint("got ", v, " @", p.Now()))
		p.Sleep(10 * ms)
		v = c.Recv(p)
		log = append(log, fmt.Sprint("got ", v, " @", p.Now()))
	})
	s.Run(time.Second)
	want := []string{"got 42 @5ms", "sent 42 @5ms", "sent 7 @20ms", "got 7 @20ms"}
	if !slices.Equal(log, want) {
		t.Errorf("log\n got %v\nwant %v", log, want)
	}
}

// TestBufferedCapacity: a channel of capacity 2 takes two sends without a
// receiver; the third waits until a receive makes room, and values arrive
// in the order sent.
func TestBufferedCapacity(t *testing.T) {
	s := New(1)
	c := NewChan[int](s, 2)
	var sent []time.Duration
	var got []int
	s.Go(func(p *Proc) {
		for i := range 5 {
			c.Send(p, i)
			sent = append(sent, p.Now())
		}
	})
	s.Go(func(p *Proc) {
		p.Sleep(10 * ms)
		for range 5 {
			got = append(got, c.Recv(p))
			if c.Len() > c.Cap() {
				t.Errorf("buffer holds %d > capacity %d", c.Len(), c.Cap())
			}
			p.Sleep(ms)
		}
	})
	s.Run(time.Second)
	if want := []time.Duration{0, 0, 10 * ms, 11 * ms, 12 * ms}; !slices.Equal(sent, want) {
		t.Errorf("sends returned at %v, want %v", sent, want)
	}
	if want := []int{0, 1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("received %v, want %v", got, want)
	}
}

// TestChanWaitingReceiversFIFO: receivers waiting on an empty channel are
// served in the order they came.
func TestChanWaitingReceiversFIFO(t *testing.T) {
	s := New(1)
	c := NewChan[string](s, 1)
	var got []string
	for i := range 3 {
		s.Go(func(p *Proc) { got = append(got, fmt.Sprint(i, c.Recv(p))) })
	}
	s.Go(func(p *Proc) {
		p.Sleep(ms)
		for _, v := range []string{"a", "b", "c"} {
			c.Send(p, v)
		}
	})
	s.Run(time.Second)
	if want := []string{"0a", "1b", "2c"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestCPUsFIFO: with 2 CPUs, five 1 ms burns asked at once run two at a
// time in the order asked, and never more than 2 at once.
func TestCPUsFIFO(t *testing.T) {
	s := New(1)
	c := NewCPUs(s, 2)
	var done []string
	for i := range 5 {
		s.Go(func(p *Proc) {
			c.Burn(p, ms)
			done = append(done, fmt.Sprint(i, "@", p.Now()))
		})
	}
	s.Run(time.Second)
	want := []string{"0@1ms", "1@1ms", "2@2ms", "3@2ms", "4@3ms"}
	if !slices.Equal(done, want) {
		t.Errorf("burns ended\n got %v\nwant %v", done, want)
	}
	if c.Busy() != 5*ms {
		t.Errorf("busy %v, want 5ms", c.Busy())
	}
}

// TestCPUsNeverOverbooked: many processes burning random durations on 3
// CPUs never have more than 3 burning at once, and keep all 3 busy.
func TestCPUsNeverOverbooked(t *testing.T) {
	s := New(7)
	c := NewCPUs(s, 3)
	for range 10 {
		s.Go(func(p *Proc) {
			for {
				c.Burn(p, time.Duration(1+p.Sim().Rand().IntN(1000))*time.Microsecond)
				if c.inUse > c.N() {
					t.Errorf("%d CPUs in use of %d", c.inUse, c.N())
				}
				p.Sleep(time.Duration(p.Sim().Rand().IntN(100)) * time.Microsecond)
			}
		})
	}
	s.RunUntil(time.Second)
	// 10 processes that sleep at most a tenth as long as they burn keep 3
	// CPUs busy all the time.
	if c.Busy() != 3*time.Second {
		t.Errorf("busy %v in 1s on 3 CPUs, want 3s", c.Busy())
	}
	s.Stop()
}

// TestBusyCountsBurnsInProgress: Busy includes the elapsed part of a burn
// that has not finished.
func TestBusyCountsBurnsInProgress(t *testing.T) {
	s := New(1)
	c := NewCPUs(s, 4)
	for range 2 {
		s.Go(func(p *Proc) { c.Burn(p, 10*ms) })
	}
	s.RunUntil(4 * ms)
	if c.Busy() != 8*ms {
		t.Errorf("busy %v at 4ms with two 10ms burns, want 8ms", c.Busy())
	}
	s.Stop()
}

// TestDeterministic: the same seed gives the same run, a different seed a
// different one.
func TestDeterministic(t *testing.T) {
	run := func(seed uint64) []time.Duration {
		s := New(seed)
		c := NewCPUs(s, 2)
		m := NewMutex(s, "m")
		ch := NewChan[time.Duration](s, 1)
		var out []time.Duration
		for range 4 {
			s.Go(func(p *Proc) {
				for {
					m.Lock(p)
					c.Burn(p, time.Duration(p.Sim().Rand().IntN(1000))*time.Microsecond)
					m.Unlock(p)
					ch.Send(p, p.Now())
				}
			})
		}
		s.Go(func(p *Proc) {
			for {
				out = append(out, ch.Recv(p))
				c.Burn(p, 300*time.Microsecond)
			}
		})
		s.Run(100 * ms)
		return out
	}
	a, b, c := run(1), run(1), run(2)
	if len(a) < 100 || !slices.Equal(a, b) {
		t.Errorf("same seed, different runs (%d and %d events)", len(a), len(b))
	}
	if slices.Equal(a, c) {
		t.Errorf("different seeds gave the same run")
	}
}

// TestRunUnwindsBlockedProcesses: processes blocked on every kind of wait
// when Run ends are unwound, their deferred calls run (even one that
// blocks), and no goroutine is left (goleak, in TestMain).
func TestRunUnwindsBlockedProcesses(t *testing.T) {
	s := New(1)
	c := NewCPUs(s, 1)
	m := NewMutex(s, "m")
	unbuf := NewChan[int](s, 0)
	full := NewChan[int](s, 1)
	unwound := 0
	procs := []func(p *Proc){
		func(p *Proc) { m.Lock(p); p.Sleep(time.Hour) }, // holds m, sleeping
		func(p *Proc) { m.Lock(p) },                     // waits for m
		func(p *Proc) { c.Burn(p, time.Hour) },          // burning
		func(p *Proc) { c.Burn(p, ms) },                 // waits for a CPU
		func(p *Proc) { unbuf.Send(p, 1) },              // waits for a receiver
		func(p *Proc) { NewChan[int](s, 0).Recv(p) },    // waits for a sender
		func(p *Proc) { full.Send(p, 1); full.Send(p, 2) },
		func(p *Proc) { defer p.Sleep(ms); p.Sleep(time.Hour) }, // blocks in a deferred call
	}
	for _, f := range procs {
		s.Go(func(p *Proc) {
			defer func() { unwound++ }()
			f(p)
			t.Errorf("process %d returned from a blocking call after Run", p.ID())
		})
	}
	s.Go(func(p *Proc) {}) // finishes normally
	s.Run(10 * ms)
	if unwound != len(procs) {
		t.Errorf("%d deferred calls ran, want %d", unwound, len(procs))
	}
	s.Stop() // a second Stop does nothing
}

// TestNotStartedProcessUnwinds: a process started but never run (its first
// event is after the end) is dropped cleanly.
func TestNotStartedProcessUnwinds(t *testing.T) {
	s := New(1)
	s.Go(func(p *Proc) { t.Error("ran") })
	s.Stop()
}

// TestProcessPanicSurfaces: a process that panics stops the simulation,
// Run panics with a *ProcessPanic that names the process, the time and the
// value, and the other processes are unwound.
func TestProcessPanicSurfaces(t *testing.T) {
	s := New(1)
	boom := errors.New("boom")
	s.Go(func(p *Proc) { p.Sleep(time.Hour) })
	s.Go(func(p *Proc) {
		p.Sleep(3 * ms)
		panic(boom)
	})
	err := runRecover(s, time.Second)
	var pp *ProcessPanic
	if !errors.As(err, &pp) {
		t.Fatalf("Run ended with %v, want a *ProcessPanic", err)
	}
	if pp.Process != 1 || pp.At != 3*ms || !errors.Is(err, boom) {
		t.Errorf("panic = process %d at %v value %v", pp.Process, pp.At, pp.Value)
	}
	msg := err.Error()
	if !strings.Contains(msg, "process 1 panicked at virtual time 3ms: boom") || !strings.Contains(msg, "sim_test.go") {
		t.Errorf("message lacks what, when or where:\n%s", msg)
	}
}

// runRecover runs s and returns what Run panicked with, as an error.
func runRecover(s *Sim, until time.Duration) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok {
				e = fmt.Errorf("%v", r)
			}
			err = e
		}
	}()
	s.Run(until)
	return nil
}

// TestSteadyStateAllocatesNothing: once warmed up, a simulation of
// processes using CPUs, a mutex, and channels allocates nothing per event.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	s, _ := busySim()
	defer s.Stop()
	s.RunUntil(10 * ms)
	before := s.Events()
	allocs := testing.AllocsPerRun(100, func() { s.RunUntil(s.Now() + ms) })
	if allocs != 0 {
		t.Errorf("%v allocations per simulated ms, want 0", allocs)
	}
	if s.Events()-before < 100*10 {
		t.Errorf("only %d events in 100 simulated ms: the test measures too little", s.Events()-before)
	}
}

// busySim is a shop-like simulation that exercises every primitive: 8
// customers take a lock, burn, and pass an order through an unbuffered
// and a buffered channel to two stage processes.
func busySim() (*Sim, *CPUs) {
	s := New(1)
	c := NewCPUs(s, 4)
	m := NewMutex(s, "m")
	orders := NewChan[int](s, 0)
	ready := NewChan[int](s, 3)
	for range 8 {
		s.Go(func(p *Proc) {
			for {
				m.Lock(p)
				c.Burn(p, 100*time.Microsecond)
				m.Unlock(p)
				orders.Send(p, p.ID())
				c.Burn(p, 50*time.Microsecond)
				p.Sleep(10 * time.Microsecond)
			}
		})
	}
	s.Go(func(p *Proc) {
		for {
			v := orders.Recv(p)
			c.Burn(p, 20*time.Microsecond)
			ready.Send(p, v)
		}
	})
	s.Go(func(p *Proc) {
		for {
			ready.Recv(p)
			c.Burn(p, 30*time.Microsecond)
		}
	})
	return s, c
}

// BenchmarkEvent measures the engine's cost per event on busySim.
func BenchmarkEvent(b *testing.B) {
	s, _ := busySim()
	defer s.Stop()
	s.RunUntil(10 * ms)
	b.ReportAllocs()
	b.ResetTimer()
	e0 := s.Events()
	for b.Loop() {
		s.RunUntil(s.Now() + ms)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(s.Events()-e0), "ns/event")
}

// TestBelowDrawsAsRand: below draws what Rand().Int64N would, draw for
// draw, from the same seed, over bounds that take each of its paths
// (powers of two, small and large bounds, and ones that reject often).
func TestBelowDrawsAsRand(t *testing.T) {
	a, b := New(7), New(7)
	for _, n := range []int64{1, 2, 3, 7, 8, 27, 58, 1000, 1 << 20, 1<<62 + 1, 3 << 61, math.MaxInt64} {
		for i := range 2000 {
			if got, want := a.below(n), b.Rand().Int64N(n); got != want {
				t.Fatalf("draw %d below %d: %d, Int64N %d", i, n, got, want)
			}
		}
	}
}
