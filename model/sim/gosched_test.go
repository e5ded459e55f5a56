package sim

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"
)

// closedLoop runs customers that each brew over and over on cpus CPUs of
// the given policy for 1 s after a 100 ms warm-up, and returns the
// latencies of the lattes finished in that second, sorted.
func closedLoop(policy string, cpus, customers int, costs Costs, brew func(c *CPUs, m *Mutex, p *Proc)) []time.Duration {
	s := New(1)
	c := NewCPUs(s, cpus)
	if policy == "go" {
		s = New(1)
		c = NewGoCPUs(s, cpus, costs)
	}
	m := NewMutex(s, "kitchen")
	var lat []time.Duration
	for range customers {
		s.Go(func(p *Proc) {
			for {
				start := p.Now()
				brew(c, m, p)
				if p.Now() > 100*ms {
					lat = append(lat, p.Now()-start)
				}
			}
		})
	}
	s.Run(1100 * ms)
	slices.Sort(lat)
	return lat
}

func ideal(c *CPUs, _ *Mutex, p *Proc) {
	for range 4 {
		c.Burn(p, ms)
	}
}

func locking(c *CPUs, m *Mutex, p *Proc) {
	m.Lock(p)
	ideal(c, nil, p)
	m.Unlock(p)
}

func quantile(lat []time.Duration, q float64) time.Duration { return lat[int(q*float64(len(lat)-1))] }

// TestGoIdealTimeSlice: four customers that never block on two Ps. A
// goroutine keeps its P across its 1 ms burns until sysmon preempts it
// after a 10 ms time slice, so most lattes take 4 ms and those cut off by
// a slice wait 10 ms or more for their P to come back — the long tail that
// a real run shows and that fifo CPUs, sharing them burn by burn, do not.
func TestGoIdealTimeSlice(t *testing.T) {
	fifo := closedLoop("fifo", 2, 4, Costs{}, ideal)
	gol := closedLoop("go", 2, 4, Costs{}, ideal)
	// Two CPUs at 4 ms a latte: 500 a second. Under go a latte cut by a
	// time slice may end just past the window, which then holds 499.
	if len(fifo) != 500 || len(gol) < 499 || len(gol) > 500 {
		t.Fatalf("lattes: fifo %d, go %d; want 500 each (two CPUs at 4 ms a latte; go 499 if a slice cuts the last)", len(fifo), len(gol))
	}
	if p50, p95 := quantile(fifo, .5), quantile(fifo, .95); p50 != 8*ms || p95 != 8*ms {
		t.Errorf("fifo: p50 %v p95 %v, want 8ms both (four customers share two CPUs burn by burn)", p50, p95)
	}
	if p50, p95 := quantile(gol, .5), quantile(gol, .95); p50 != 4*ms || p95 < 20*ms {
		t.Errorf("go: p50 %v p95 %v, want 4ms and over 20ms (time slices of 10 ms)", p50, p95)
	}
}

// TestGoMutexBarging: two customers on two Ps sharing one kitchen lock.
// Under fifo the lock alternates and every latte takes 8 ms. Under go the
// unlocking customer takes the lock straight back before the waiter it
// woke has run, until that waiter has starved for 1 ms and the mutex hands
// itself over: lattes take 4 or 12 ms (never 8), at the same throughput.
func TestGoMutexBarging(t *testing.T) {
	costs := Costs{Switch: 200 * time.Nanosecond, Wake: 20 * time.Microsecond}
	fifo := closedLoop("fifo", 2, 2, Costs{}, locking)
	gol := closedLoop("go", 2, 2, costs, locking)
	if n := len(fifo); n != 250 {
		t.Errorf("fifo: %d lattes, want 250", n)
	}
	if n := len(gol); n < 245 || n > 250 {
		t.Errorf("go: %d lattes, want 245..250 (the lock is busy all the time but for handoffs)", n)
	}
	if lo, hi := fifo[0], fifo[len(fifo)-1]; lo != 8*ms || hi != 8*ms {
		t.Errorf("fifo latencies %v..%v, want all 8ms", lo, hi)
	}
	short, long := 0, 0
	for _, d := range gol {
		switch {
		case d < 4200*time.Microsecond:
			short++
		case d > 11*ms && d < 13*ms:
			long++
		default:
			t.Fatalf("go: a latte took %v; want about 4 ms (barged) or 12 ms (starved)", d)
		}
	}
	if short == 0 || long == 0 {
		t.Errorf("go: %d lattes of 4 ms, %d of 12 ms; want both", short, long)
	}
}

// TestGoRunnext: a goroutine readied by a channel send waits in the
// sender's runnext slot while the sender keeps burning; the other P, idle,
// wakes after Costs.Wake and steals it.
func TestGoRunnext(t *testing.T) {
	for _, tc := range []struct {
		cpus int
		want time.Duration // when the receiver runs
	}{
		// The Ps start idle: each start and the sender's timer wake one,
		// 50 µs later, so the sender sends at 1.1 ms.
		{1, 3*ms + 100*time.Microsecond},              // one P: once the sender ends its 2 ms burn
		{2, ms + 150*time.Microsecond + runnextAsked}, // the idle P wakes and steals it
	} {
		s := New(1)
		c := NewGoCPUs(s, tc.cpus, Costs{Wake: 50 * time.Microsecond})
		ch := NewChan[int](s, 0)
		var got time.Duration
		s.Go(func(p *Proc) { ch.Recv(p); got = p.Now() })
		s.Go(func(p *Proc) {
			p.Sleep(ms)
			ch.Send(p, 1)
			c.Burn(p, 2*ms)
		})
		s.Run(10 * ms)
		if got != tc.want {
			t.Errorf("%d CPUs: receiver ran at %v, want %v", tc.cpus, got, tc.want)
		}
	}
}

// TestGoRunnextGrace: a P that comes to steal another P's runnext
// goroutine waits Costs.RunnextGrace first, and steals it only if that P
// has not run it meanwhile: a sender that blocks 30 µs after its send runs
// the receiver itself, before a 50 µs grace is over; one that burns on
// loses it to the thief when the grace is over.
func TestGoRunnextGrace(t *testing.T) {
	const grace = 50 * time.Microsecond
	for _, tc := range []struct {
		name  string
		burn  time.Duration // the sender's burn after the send, before it blocks
		want  time.Duration // when the receiver runs
		thief bool          // whether it runs on the other P
	}{
		// The Ps start idle: each start and the sender's timer wake one,
		// 50 µs later, so the sender sends at 1.1 ms and the other P,
		// woken at once, arrives 50 µs later.
		{"burns on", 2 * ms, ms + 150*time.Microsecond + grace, true},
		{"blocks first", 30 * time.Microsecond, ms + 130*time.Microsecond, false},
	} {
		s := New(1)
		c := NewGoCPUs(s, 2, Costs{Wake: 50 * time.Microsecond, RunnextGrace: grace})
		ch, done := NewChan[int](s, 0), NewChan[int](s, 0)
		var got time.Duration
		var on *gp
		s.Go(func(p *Proc) { ch.Recv(p); got, on = p.Now(), p.pp })
		var sender *gp
		s.Go(func(p *Proc) {
			p.Sleep(ms)
			ch.Send(p, 1)
			sender = p.pp
			c.Burn(p, tc.burn)
			done.Recv(p)
		})
		s.Run(10 * ms)
		if got != tc.want || (on != sender) != tc.thief {
			t.Errorf("%s: receiver ran at %v on the thief %v, want %v, %v", tc.name, got, on != sender, tc.want, tc.thief)
		}
	}
}

// TestGoCostsCharged: every handoff on an unbuffered channel costs the
// sender ChanHandoff, so a ping-pong of n round trips on one P takes
// n × 2 × (ChanHandoff + Switch).
func TestGoCostsCharged(t *testing.T) {
	const n = 1000
	costs := Costs{Switch: 100 * time.Nanosecond, ChanHandoff: 400 * time.Nanosecond}
	s := New(1)
	NewGoCPUs(s, 1, costs)
	ping, pong := NewChan[int](s, 0), NewChan[int](s, 0)
	var done time.Duration
	s.Go(func(p *Proc) {
		for range n {
			pong.Send(p, ping.Recv(p))
		}
	})
	s.Go(func(p *Proc) {
		for i := range n {
			ping.Send(p, i)
			pong.Recv(p)
		}
		done = p.Now()
	})
	s.Run(time.Second)
	// Each round trip: two sends that ready a waiter (cost each), and two
	// switches; the very first receive blocks before any send.
	want := n * 2 * (costs.ChanHandoff + costs.Switch)
	if diff := done - want; diff < -2*costs.Switch || diff > 2*costs.Switch {
		t.Errorf("%d round trips took %v, want about %v", n, done, want)
	}
}

// switches runs two goroutines that never block, burning 1 ms steps on one
// P whose sysmon first ticks at phase (with costs of no timer slack, every
// 10 ms after), and returns the times at which the P went from one to the
// other in the first 60 ms.
func switches(phase time.Duration) []time.Duration {
	s := New(1)
	c := NewGoCPUs(s, 1, Costs{})
	c.SetSysmonPhase(phase)
	var at []time.Duration
	last := -1
	c.Log(func(sl Slice) {
		if last >= 0 && sl.Proc != last {
			at = append(at, sl.Start)
		}
		last = sl.Proc
	})
	for range 2 {
		s.Go(func(p *Proc) {
			for {
				c.Burn(p, ms)
			}
		})
	}
	s.Run(60 * ms)
	return at
}

// TestGoSysmonPreemption: sysmon notes a P's new time slice at its first
// tick and preempts the goroutine at the tick 10 ms later, so with ticks at
// 2.5 ms and every 10 ms after, the first slice (from 0) ends at 12.5 ms and
// every later one at the next tick but one after it began, in the middle
// of a step.
func TestGoSysmonPreemption(t *testing.T) {
	want := []time.Duration{12500 * time.Microsecond, 22500 * time.Microsecond, 32500 * time.Microsecond, 42500 * time.Microsecond, 52500 * time.Microsecond}
	if got := switches(2500 * time.Microsecond); !slices.Equal(got, want) {
		t.Errorf("the P switched goroutines at %v, want %v", got, want)
	}
}

// TestGoSysmonPeriod: sysmon's 10 ms sleep lasts as much longer as the
// timer slack that stretches the runnext grace's 3 µs one, so ticks drift
// against a program's 1 ms steps instead of striking each at the same point.
func TestGoSysmonPeriod(t *testing.T) {
	for _, tc := range []struct {
		grace, want time.Duration
	}{
		{0, 10 * ms}, // the 3 µs asked for: no slack
		{58 * time.Microsecond, 10*ms + 55*time.Microsecond},
	} {
		s := New(1)
		c := NewGoCPUs(s, 1, Costs{RunnextGrace: tc.grace})
		if got := c.sched.sysmonPeriod; got != tc.want {
			t.Errorf("grace %v: sysmon ticks every %v, want %v", tc.grace, got, tc.want)
		}
	}
}

// TestGoInheritedSlice: a goroutine that takes the P from its runnext slot
// inherits the time slice of the one it follows, and sysmon preempts it
// at its next tick — not at once, though the inherited slice is already
// over. The first goroutine starts a second at 1 ms, which waits in the
// runnext slot; sysmon (ticks at 5 ms and every 10 ms) preempts the first
// at 15 ms; the second then runs until the next tick, 25 ms.
func TestGoInheritedSlice(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 1, Costs{})
	c.SetSysmonPhase(5 * ms)
	var first, second []Slice
	secondID := -1
	c.Log(func(sl Slice) {
		if sl.Proc == secondID {
			second = append(second, sl)
		} else {
			first = append(first, sl)
		}
	})
	forever := func(p *Proc) {
		for {
			c.Burn(p, ms)
		}
	}
	s.Go(func(p *Proc) {
		c.Burn(p, ms)
		secondID = s.NextID()
		s.Go(forever)
		forever(p)
	})
	s.Run(30 * ms)
	if len(second) == 0 || second[0].Start != 15*ms {
		t.Fatalf("the second goroutine's slices %v; want the first to start at 15ms", second)
	}
	var end time.Duration
	for _, sl := range second {
		if sl.Start < 25*ms {
			end = sl.End
		}
	}
	if end != 25*ms {
		t.Errorf("the second goroutine ran its inherited slice until %v, want 25ms (sysmon's next tick)", end)
	}
}

// TestGoWallSteps: a step that ends on the clock and is preempted midway
// ends when its time has passed since it began, with less of it burned;
// one of CPU time burns all of it. One goroutine burns a single long step
// while another burns 1 ms steps forever; sysmon (ticks at 2.5 ms and every
// 10 ms) preempts the long step at 12.5 ms and gives the P back at 22.5 ms.
// A 30 ms step then ends at 30 ms having burned 20 ms; of CPU time, it is
// preempted again at 32.5 ms and ends at 50 ms having burned 30. A 15 ms
// step, already over when its goroutine runs again, ends at 22.5 ms having
// burned 12.5 ms; of CPU time, at 25 ms having burned 15.
func TestGoWallSteps(t *testing.T) {
	for _, tc := range []struct {
		wall          bool
		step          time.Duration
		ended, burned time.Duration
	}{
		{true, 30 * ms, 30 * ms, 20 * ms},
		{false, 30 * ms, 50 * ms, 30 * ms},
		{true, 15 * ms, 22500 * time.Microsecond, 12500 * time.Microsecond},
		{false, 15 * ms, 25 * ms, 15 * ms},
	} {
		s := New(1)
		c := NewGoCPUs(s, 1, Costs{})
		c.SetSysmonPhase(2500 * time.Microsecond)
		c.SetWallSteps(tc.wall)
		var ended, burned time.Duration
		s.Go(func(p *Proc) {
			s.Go(func(p *Proc) {
				for {
					c.Burn(p, ms)
				}
			})
			c.Burn(p, tc.step)
			ended, burned = s.Now(), p.burned
		})
		s.Run(60 * ms)
		if ended != tc.ended || burned != tc.burned {
			t.Errorf("wall %v, a %v step: ended at %v having burned %v, want %v and %v", tc.wall, tc.step, ended, burned, tc.ended, tc.burned)
		}
	}
}

// TestGoMutexSpin: goroutines that hold a mutex 100 ns between 300 ns of
// work of their own. Where Lock parks at once, each contended Lock sleeps
// and waits for a wake-up of microseconds; where it spins first (50 ns a
// spin, four at most) it finds the lock free before it would sleep. On
// one P no Lock may spin (no other P runs the holder), so the spin
// changes nothing there.
func TestGoMutexSpin(t *testing.T) {
	run := func(cpus int, spin time.Duration) (ops int, wait time.Duration) {
		s := New(1)
		c := NewGoCPUs(s, cpus, Costs{Switch: 200 * time.Nanosecond, Wake: 20 * time.Microsecond,
			MutexHandoff: time.Microsecond, MutexSpin: spin})
		m := NewMutex(s, "cache")
		for range 2 {
			s.Go(func(p *Proc) {
				for {
					c.Burn(p, 300*time.Nanosecond)
					asked := p.Now()
					m.Lock(p)
					wait += p.Now() - asked
					c.Burn(p, 100*time.Nanosecond)
					m.Unlock(p)
					ops++
				}
			})
		}
		s.Run(10 * ms)
		return ops, wait
	}
	parked, parkedWait := run(2, 0)
	spun, spunWait := run(2, 50*time.Nanosecond)
	// Two Ps at 400 ns an operation: 50000 in 10 ms at most.
	if spun > 50000 || spun < 40000 {
		t.Errorf("spinning Lock: %d operations in 10 ms; want 40000..50000 (two Ps at 400 ns each, less the spins)", spun)
	}
	if spun < parked*3/2 {
		t.Errorf("spinning Lock: %d operations, parking Lock %d; want half again as many at least (no wake-ups of 20 µs)", spun, parked)
	}
	t.Logf("parking Lock: %d operations, waits %v; spinning Lock: %d, waits %v", parked, parkedWait, spun, spunWait)
	if w := spunWait / time.Duration(spun); w > 200*time.Nanosecond {
		t.Errorf("spinning Lock: waits %v a use; want at most four spins (200ns)", w)
	}
	if parkedWait < ms {
		t.Errorf("parking Lock: waited %v in all; want milliseconds (a wake-up of 20 µs for each Lock that slept)", parkedWait)
	}
	one, _ := run(1, 0)
	oneSpin, _ := run(1, 50*time.Nanosecond)
	if one != oneSpin {
		t.Errorf("one P: %d operations without spinning, %d with; want the same (no other P runs the holder)", one, oneSpin)
	}
}

// TestGoSteadyStart: with a steady start, goroutines started before the
// run begin at once, each on an idle P of its own; without, the Ps wake
// one after another.
func TestGoSteadyStart(t *testing.T) {
	for _, steady := range []bool{false, true} {
		s := New(1)
		c := NewGoCPUs(s, 3, Costs{Wake: 50 * time.Microsecond})
		c.SetSteadyStart(steady)
		var began []time.Duration
		for range 3 {
			s.Go(func(p *Proc) {
				began = append(began, p.Now())
				c.Burn(p, ms)
			})
		}
		s.Run(10 * ms)
		want := []time.Duration{50 * time.Microsecond, 100 * time.Microsecond, 150 * time.Microsecond}
		if steady {
			want = []time.Duration{0, 0, 0}
		}
		if !slices.Equal(began, want) {
			t.Errorf("steady %v: began at %v, want %v", steady, began, want)
		}
	}
}

// TestGoSteadyStartQueues: with a steady start, goroutines started
// before the run beyond one a P wait in the Ps' local queues, as in a
// program long under way, so that a Lock finding the mutex held does not
// spin (its P has other work) but sleeps, and its P runs a queued
// goroutine before the holder unlocks at 5 µs.
func TestGoSteadyStartQueues(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 2, Costs{MutexSpin: time.Microsecond, Switch: 100 * time.Nanosecond})
	c.SetSteadyStart(true)
	m := NewMutex(s, "mu")
	s.Go(func(p *Proc) {
		m.Lock(p)
		c.Burn(p, 5*time.Microsecond)
		m.Unlock(p)
	})
	s.Go(func(p *Proc) {
		c.Burn(p, time.Microsecond)
		m.Lock(p)
		m.Unlock(p)
	})
	first := time.Duration(-1)
	for range 2 {
		s.Go(func(p *Proc) {
			if first < 0 {
				first = p.Now()
			}
			c.Burn(p, ms)
		})
	}
	s.Run(10 * ms)
	if first < 0 || first >= 5*time.Microsecond {
		t.Errorf("the first queued goroutine began at %v, want before the holder's unlock at 5µs", first)
	}
}

// TestGoMutexSleptSpun: a Lock that spins its four spins on a held mutex
// and then sleeps is counted as such; woken, finding the mutex held
// again, it spins four more, as lockSlow starts its count again after a
// wake, and sleeps again. g1 holds the mutex 10 µs, then again 200 µs; g2
// spins on the first hold and sleeps, is woken by the first Unlock and
// stolen from g1's runnext by the idle P, spins and sleeps again.
func TestGoMutexSleptSpun(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 3, Costs{MutexSpin: time.Microsecond, Wake: 5 * time.Microsecond})
	c.SetSteadyStart(true)
	m := NewMutex(s, "mu")
	s.Go(func(p *Proc) {
		m.Lock(p)
		c.Burn(p, 10*time.Microsecond)
		m.Unlock(p)
		m.Lock(p)
		c.Burn(p, 200*time.Microsecond)
		m.Unlock(p)
	})
	s.Go(func(p *Proc) {
		c.Burn(p, time.Microsecond)
		m.Lock(p)
		m.Unlock(p)
	})
	s.Go(func(p *Proc) { c.Burn(p, ms) }) // keeps a third P busy, so that spinning is allowed
	got := paths(m)
	s.Run(2 * ms)
	if got["spin"] != 8 || got["slept"] != 2 || got["slept-spun"] != 2 {
		t.Errorf("%d spins, %d sleeps, %d of them after spinning; want 8, 2, 2 (%v)", got["spin"], got["slept"], got["slept-spun"], got)
	}
}

// paths counts the paths m's Locks and Unlocks take from now (Observe).
func paths(m *Mutex) map[string]int64 {
	n := map[string]int64{}
	m.Observe(func(path string, _, _ *Proc) { n[path]++ })
	return n
}

// TestGoMutexWakeStats: a goroutine that blocks in Lock is woken by the
// Unlock into the unlocker's runnext and runs there once the unlocker is
// done, 10 µs later, before the idle P woken for it (20 µs) could take it:
// one wake, on the waker's P, 10 µs from wake to running.
func TestGoMutexWakeStats(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 2, Costs{Wake: 20 * time.Microsecond})
	c.SetSteadyStart(true) // each on a P of its own from the start
	m := NewMutex(s, "mu")
	var woke []string // the waker's P and the woken's, and when
	got := map[string]int64{}
	m.Observe(func(path string, p, by *Proc) {
		got[path]++
		switch path {
		case "woke":
			woke = append(woke, fmt.Sprintf("woken by P%d at %v", by.CPU(), p.Now()))
		case "back":
			woke = append(woke, fmt.Sprintf("back on P%d at %v", p.CPU(), p.Now()))
		}
	})
	s.Go(func(p *Proc) {
		m.Lock(p)
		c.Burn(p, 10*time.Microsecond)
		m.Unlock(p)
		c.Burn(p, 10*time.Microsecond)
	})
	s.Go(func(p *Proc) {
		c.Burn(p, time.Microsecond)
		m.Lock(p)
		m.Unlock(p)
	})
	s.Run(ms)
	if want := []string{"woken by P0 at 10µs", "back on P0 at 20µs"}; !slices.Equal(woke, want) {
		t.Errorf("wakes %q, want %q", woke, want)
	}
	// The first Lock took it at the fast path; the second, finding it
	// held and unable to spin (no spin cost), slept, was woken by the
	// Unlock and took it then.
	want := map[string]int64{"fast": 1, "slept": 1, "took-woken": 1, "wake": 1, "woke": 1, "back": 1}
	if !maps.Equal(got, want) {
		t.Errorf("paths %v, want %v", got, want)
	}
}

// TestGoMutexLockSlowLooks: lockSlow first loads the state word and swaps
// from what it saw. Two goroutines on 2 Ps, 120 ns outside a mutex held
// 2 ns, moves of 32 ns and spins of 290 ns (a 2-vCPU machine's costs): a
// Lock whose fast path found the mutex held loads the word, which comes
// back after the holder's Unlock took the line, the mutex free — it takes
// it without spinning, as sync.Mutex there does (0.7–6.7 spins a thousand
// operations, validation/testdata/twocpu/mutexwork.txt), where taking the
// mutex for held at the failed swap spun 41 a thousand. And four
// goroutines on 4 Ps around an empty critical section: one that saw the
// mutex free and lost it to another before its swap landed looks again
// rather than sleeping, so the Ps do not fall to one goroutine running
// alone at one CPU's speed, which sleeping there did (0.99 of one alone).
func TestGoMutexLockSlowLooks(t *testing.T) {
	costs := Costs{Switch: 81 * time.Nanosecond, Wake: 45 * time.Microsecond, MutexHandoff: 298 * time.Nanosecond,
		RunnextGrace: 88 * time.Microsecond, MutexSpin: 290 * time.Nanosecond, RuntimeLock: 14 * time.Nanosecond,
		Transfer: Transfer{Socket: 32 * time.Nanosecond}}
	run := func(n int, outside, inside time.Duration) (ops int, spins int64) {
		s := New(1)
		c := NewGoCPUs(s, n, costs)
		c.SetSteadyStart(true)
		c.SetMachine(Machine{Sockets: 1, CoresPerSocket: n, ThreadsPerCore: 1})
		m := NewMutex(s, "mu")
		for range n {
			s.Go(func(p *Proc) {
				for {
					c.Burn(p, outside)
					m.Lock(p)
					c.Burn(p, inside)
					m.Unlock(p)
					ops++
				}
			})
		}
		s.RunUntil(ms)
		ops0, taken := ops, paths(m)
		s.Run(6 * ms)
		return ops - ops0, taken["spin"]
	}
	ops, spins := run(2, 122*time.Nanosecond, 2*time.Nanosecond)
	if perK := 1000 * float64(spins) / float64(ops); perK > 5 {
		t.Errorf("one mutex, 2 ns held, 122 ns outside, on 2 Ps: %.1f spins a thousand operations; want under 5", perK)
	}
	one, _ := run(1, 8*time.Nanosecond, 8*time.Nanosecond)
	four, _ := run(4, 8*time.Nanosecond, 8*time.Nanosecond)
	if r := float64(four) / float64(one); r > 0.8 {
		t.Errorf("an empty critical section on 4 Ps ran %.2f of one alone; want under 0.8 (0.99: one goroutine running alone)", r)
	}
}

// TestGoMutexFastPathFromZero: sync.Mutex's fast path swaps a word of
// zero only, so that with a waiter counted in the word, or a woken one on
// its way, a Lock of a free mutex takes it in lockSlow. g1 holds the mutex
// 10 µs while g2, on the other P, sleeps (no spinning in these costs);
// g1's Unlock wakes g2 into g1's runnext and g1 locks again at once, the
// mutex free but g2 on its way: lockSlow, not the fast path.
func TestGoMutexFastPathFromZero(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 2, Costs{Wake: 20 * time.Microsecond})
	c.SetSteadyStart(true)
	m := NewMutex(s, "mu")
	s.Go(func(p *Proc) {
		m.Lock(p)
		c.Burn(p, 10*time.Microsecond)
		m.Unlock(p)
		m.Lock(p)
		c.Burn(p, 10*time.Microsecond)
		m.Unlock(p)
	})
	s.Go(func(p *Proc) {
		c.Burn(p, time.Microsecond)
		m.Lock(p)
		m.Unlock(p)
	})
	got := paths(m)
	s.Run(ms)
	if got["fast"] != 1 || got["took"] != 1 {
		t.Errorf("%d Locks at the fast path, %d later; want 1 and 1: the second of g1's found g2 on its way (%v)", got["fast"], got["took"], got)
	}
}

// TestGoMutexCountTakenMeanwhile: an Unlock that wakes a waiter adds to
// the semaphore's count, and a Lock on its way into the semaphore before
// the woken one runs takes it, so that the woken one finds none and sleeps
// again. g1 unlocks at 10 µs, waking g2 into its runnext, and locks again
// for 100 µs; g3 comes to the held mutex at 12 µs and takes the count
// without sleeping; g2, stolen by the idle P at 33 µs, sleeps again.
func TestGoMutexCountTakenMeanwhile(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 3, Costs{Wake: 20 * time.Microsecond})
	c.SetSteadyStart(true)
	m := NewMutex(s, "mu")
	done := 0
	s.Go(func(p *Proc) {
		m.Lock(p)
		c.Burn(p, 10*time.Microsecond)
		m.Unlock(p)
		m.Lock(p)
		c.Burn(p, 100*time.Microsecond)
		m.Unlock(p)
		done++
	})
	for _, at := range []time.Duration{time.Microsecond, 12 * time.Microsecond} {
		s.Go(func(p *Proc) {
			c.Burn(p, at)
			m.Lock(p)
			m.Unlock(p)
			done++
		})
	}
	got := paths(m)
	s.Run(ms)
	if got["slept-again"] != 1 || done != 3 {
		t.Errorf("%d woken to find the count taken, %d of 3 goroutines done; want 1 and 3 (%v)", got["slept-again"], done, got)
	}
}

// TestGoMutexCountBeforeTheQueue: an Unlock that wakes adds to the
// semaphore's count before it takes the lock of the semaphore's queue, and
// a Lock on its way to sleep looks at the count again once it has that
// lock, before the queue's work, as the runtime's semrelease1 and
// semacquire1 do. The queue's work takes 20 µs here: g2, at the held
// mutex at 1 µs, holds the queue's lock till 21 µs to queue itself; g3,
// at the mutex at 2 µs, waits for that lock; g1's Unlock at 10 µs adds
// the count and waits for the lock too. g3, getting the lock first, finds
// the count and takes the mutex without sleeping, before g2, whom g1
// wakes only then. Where the count came under the lock and was looked at
// once after the queue's work, g3 queued and slept, and took the mutex
// last (at 91 µs, g2 at 71).
func TestGoMutexCountBeforeTheQueue(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 4, Costs{Wake: 5 * time.Microsecond, RuntimeLock: 20 * time.Microsecond})
	c.SetSteadyStart(true)
	m := NewMutex(s, "mu")
	var took [2]time.Duration // g2's and g3's
	s.Go(func(p *Proc) {
		m.Lock(p)
		c.Burn(p, 10*time.Microsecond)
		m.Unlock(p)
	})
	for i, start := range []time.Duration{time.Microsecond, 2 * time.Microsecond} {
		s.Go(func(p *Proc) {
			c.Burn(p, start)
			m.Lock(p)
			took[i] = s.Now()
			m.Unlock(p)
		})
	}
	got := paths(m)
	s.Run(ms)
	if took[0] == 0 || took[1] == 0 || took[1] >= took[0] {
		t.Errorf("g2 took the mutex at %v, g3 at %v; want g3 first, awake: the count g1 added while g3 waited for the queue's lock", took[0], took[1])
	}
	if got["slept-again"] != 0 || m.Sleeping() != 0 {
		t.Errorf("%d woken to find the count taken, %d asleep at the end; want 0 and 0 (%v)", got["slept-again"], m.Sleeping(), got)
	}
}

// TestSchedulerStates: mid-run, with four goroutines burning on two Ps,
// States counts the two Ps with a goroutine and the two goroutines waiting
// for one; under fifo, whose scheduler's counts are 0, Sleeping counts a
// lock's two waiters.
func TestSchedulerStates(t *testing.T) {
	s := New(1)
	c := NewGoCPUs(s, 2, Costs{Wake: time.Microsecond})
	c.SetSteadyStart(true)
	m := NewMutex(s, "mu")
	for range 3 {
		s.Go(func(p *Proc) { c.Burn(p, time.Millisecond) })
	}
	s.Go(func(p *Proc) { m.Lock(p); c.Burn(p, time.Millisecond); m.Unlock(p) })
	s.RunUntil(10 * time.Microsecond)
	if run, ready, look := c.States(); run != 2 || ready != 2 || look != 0 {
		t.Errorf("go policy: %d running, %d runnable, %d looking for work; want 2, 2 and 0", run, ready, look)
	}
	s.Stop()

	f := New(1)
	fc := NewCPUs(f, 1)
	fm := NewMutex(f, "mu")
	for range 3 {
		f.Go(func(p *Proc) { fm.Lock(p); fc.Burn(p, time.Millisecond); fm.Unlock(p) })
	}
	f.RunUntil(10 * time.Microsecond)
	run, ready, _ := fc.States()
	if asleep := fm.Sleeping(); run != 0 || ready != 0 || asleep != 2 {
		t.Errorf("fifo: %d running, %d runnable, %d waiting for the mutex; want 0, 0 and 2", run, ready, asleep)
	}
	f.Stop()
}
