package sim

// Mutex is a virtual sync.Mutex. Under fifo Unlock hands it to the longest
// waiter. Under the go policy it is sync.Mutex: spinning, barging,
// starvation mode after 1 ms, and a state word that is a [Line].
type Mutex struct {
	sim     *Sim
	name    string
	line    *Line
	held    bool
	waiters ring[*Proc]

	// The go policy's state: a woken waiter is on its way (Unlock wakes no
	// other), starvation mode, and the waiter last handed the lock in it.
	woken    bool
	starving bool
	handedTo *Proc
	// The semaphore where waiters sleep: its queue's runtime lock, the
	// waiters counted in the state word, the semaphore's count (tokens,
	// handedTokens of them a starving Unlock's handoffs) and its root's
	// count of queued waiters (nwait).
	sema                                 *RuntimeMutex
	counted, tokens, nwait, handedTokens int

	observe func(path string, p, by *Proc) // see Observe
}

// Observe has fn told each path the go policy's Locks and Unlocks of m
// take, by p: "fast", "took", "took-woken", "handed", "spin", "slept",
// "slept-spun" (of those slept, one that spun all it may), "slept-again"
// (woken to find the count taken), "swap-lost" (a swap to take a mutex
// seen free that found it taken), "wake" and "handoff" by Unlocks; and
// "woke" where Unlock by by wakes the sleeper p, "back" where p runs
// again. It is for validation, to count them as its replica of sync.Mutex
// does.
func (m *Mutex) Observe(fn func(path string, p, by *Proc)) { m.observe = fn }

func (m *Mutex) note(path string, p, by *Proc) {
	if m.observe != nil {
		m.observe(path, p, by)
	}
}

// Sleeping returns how many goroutines sleep on the mutex's semaphore
// now under the go policy, or wait for it under fifo.
func (m *Mutex) Sleeping() int { return m.waiters.len() }

// NewMutex returns an unlocked mutex named name ("grinder"), as its
// panics say.
func NewMutex(s *Sim, name string) *Mutex {
	return &Mutex{sim: s, name: name, line: &Line{sim: s}}
}

func (m *Mutex) Name() string { return m.name }

// Lock takes the mutex, waiting while another process holds it.
func (m *Mutex) Lock(p *Proc) {
	// The fifo policy's free mutex inline.
	if !m.held && m.sim.sched == nil {
		m.held = true
	} else {
		m.lock(p)
	}
}

// LockOrWait is Lock for a process that runs as steps ([Sim.GoSteps]),
// under fifo: it takes the mutex, reporting true, or waits for it, and
// the process's next step holds it.
func (m *Mutex) LockOrWait(p *Proc) bool {
	if m.sim.sched != nil || p.step == nil {
		panic("sim: LockOrWait is for a process that runs as steps, under fifo")
	}
	if !m.held {
		m.held = true
		return true
	}
	m.waiters.push(p)
	return false
}

func (m *Mutex) lock(p *Proc) {
	if m.sim.sched != nil {
		m.lockGo(p)
		return
	}
	m.waiters.push(p)
	// p.park(), spelled out (see handoff): resumes holding the mutex
	if c := m.sim.handoff(p.co, p); c != nil {
		if c.pending {
			c.next()
		} else {
			c.yield(struct{}{})
		}
	}
	p.back()
}

// Unlock releases the mutex; it panics if the mutex is not locked.
func (m *Mutex) Unlock(p *Proc) {
	if !m.held {
		panic("sim: unlock of unlocked mutex " + m.name)
	}
	if m.sim.sched != nil {
		m.line.Write(p) // the atomic add that unlocks: held till it lands
		m.unlockGo(p)
		return
	}
	if m.waiters.len() == 0 {
		m.held = false
		return
	}
	m.sim.schedule(m.waiters.pop(), m.sim.now) // handed over
}

// lockGo is sync.Mutex's Lock: take the mutex if it is free and not
// starving, even ahead of waiters; else spin, then sleep in line and on
// waking try again, back at the head of the line if someone barged.
func (m *Mutex) lockGo(p *Proc) {
	s := m.sim
	start := s.now
	// The fast path's compare-and-swap, from a word of zero: where waiters
	// are counted in it or a woken one is on its way, it fails even on a
	// free mutex, and lockSlow takes it.
	m.line.Write(p)
	if !m.held && !m.starving && m.counted == 0 && !m.woken {
		m.note("fast", p, nil)
		m.held = true
		return
	}
	// lockSlow's first look at the state word.
	m.line.Read(p)
	free, spun := m.spin(p, 0)
	if free {
		m.took(p, false)
		return
	}
	again := false
	for {
		// The swap is computed from the word last seen: one that saw the
		// mutex free sets it locked, one that saw it held counts itself a
		// waiter; a swap whose word changed meanwhile fails and looks again.
		sawFree := !m.held && !m.starving
		m.line.Write(p) // the compare-and-swap that takes it or counts p a waiter
		if !m.held && !m.starving {
			m.took(p, again) // free at the swap: it took it
			return
		}
		if sawFree {
			// Taken by another between the look and the swap: lockSlow
			// loads the word again and spins where it may, not asleep.
			m.note("swap-lost", p, nil)
			if free, spun = m.spin(p, spun); free {
				m.took(p, again)
				return
			}
			continue
		}
		// semacquire: the semaphore's queue, under the runtime's lock.
		m.note("slept", p, nil)
		if spun == spins {
			m.note("slept-spun", p, nil)
		}
		m.counted++
		handed := m.semacquire(p, again)
		starved := s.now-start > starvation
		if m.handedTo == p || handed { // starvation mode: Unlock handed the lock over
			if m.handedTo == p {
				m.handedTo = nil
			}
			m.counted-- // the handed waiter uncounts itself
			if !starved || m.counted == 0 {
				m.starving = false
			}
			m.note("handed", p, nil)
			m.held = true
			return
		}
		// Woken, lockSlow looks at the word again and spins where it
		// may, its woken bit keeping Unlocks from waking another; the
		// swap that follows clears the bit.
		m.line.Read(p)
		free, spun = m.spin(p, 0)
		m.woken = false
		if free {
			m.took(p, true)
			return
		}
		if starved && m.held && !s.sched.quirks.NoSpin {
			m.starving = true
		}
		again = true
	}
}

// semacquire is runtime_SemacquireMutex (semacquire1) for p, which asked
// for the mutex at since; it reports whether p was handed the mutex.
func (m *Mutex) semacquire(p *Proc, again bool) (handed bool) {
	s := m.sim
	sema := m.semaphore()
	for {
		if m.tokens > 0 { // cansemacquire, before any lock
			return m.takeToken()
		}
		sema.Lock(p)
		m.nwait++
		if m.tokens > 0 { // released while p waited for the queue's lock
			m.nwait--
			handed = m.takeToken()
			sema.Unlock(p)
			return handed
		}
		s.sched.spend(p, s.sched.costs.RuntimeLock) // the queue's work
		sema.unlock(p, func() {
			if again {
				m.waiters.pushFront(p) // a woken waiter that lost keeps its place
			} else {
				m.waiters.push(p)
			}
		})
		p.block()
		m.note("back", p, nil)
		if m.handedTo == p {
			return false // handed the mutex itself, not a count
		}
		if m.tokens > 0 {
			return m.takeToken()
		}
		m.note("slept-again", p, nil)
	}
}

// takeToken takes a count of the semaphore, reporting whether it was a
// starving Unlock's, which hands the mutex over with it.
func (m *Mutex) takeToken() (handed bool) {
	m.tokens--
	if m.handedTokens > 0 {
		m.handedTokens--
		return true
	}
	return false
}

// took is p taking the mutex in lockSlow, after waking or not.
func (m *Mutex) took(p *Proc, woken bool) {
	if woken {
		m.note("took-woken", p, nil)
	} else {
		m.note("took", p, nil)
	}
	m.held = true
}

// spin is Lock's active spinning, up to spins times in all for one Lock,
// spun of them before; it reports whether the mutex came free and how
// many times the Lock has spun. A spinner counts as the woken waiter.
func (m *Mutex) spin(p *Proc, spun int) (free bool, _ int) {
	s := m.sim
	awoke := false
	if s.sched.quirks.NoSpin {
		return false, 0
	}
	for ; spun < spins; spun++ {
		if !m.held || m.starving || !s.sched.canSpin(p) {
			break
		}
		if !m.woken && m.waiters.len() > 0 {
			m.woken, awoke = true, true
		}
		s.sched.spend(p, s.sched.costs.MutexSpin)
		m.note("spin", p, nil)
		m.line.Read(p) // the spin's look at the state word
		if !m.held && !m.starving {
			m.line.Write(p) // the compare-and-swap that takes it
			if !m.held && !m.starving {
				free = true
				break
			}
			m.note("swap-lost", p, nil)
		}
	}
	if awoke {
		m.woken = false
	}
	return free, spun
}

// unlockGo is sync.Mutex's Unlock: it wakes a waiter (unless one is
// awake) without handing it the lock, or, starving, hands it over and
// yields the P so that the waiter runs at once.
func (m *Mutex) unlockGo(p *Proc) {
	s := m.sim
	if m.counted == 0 {
		m.held, m.starving = false, false
		return
	}
	// Starving, it hands over even to a waiter counted and not yet
	// queued, which then takes the semaphore's token and the mutex with it.
	starving := m.starving
	if !starving && m.woken {
		m.held = false
		return
	}
	if !starving {
		// unlockSlow's swap: it uncounts the waiter it wakes.
		m.held, m.woken = false, true
		m.counted--
	}
	// semrelease: the count goes up before any lock, and only where a
	// waiter has queued (nwait) is the queue's lock taken to wake it.
	if starving {
		m.note("handoff", p, nil)
	} else {
		m.note("wake", p, nil)
		m.tokens++ // semrelease's count, for whoever looks first
	}
	// Starving, with no waiter queued, the count stays for the waiter
	// counted and on its way, which takes the mutex with it.
	handOn := func() {
		m.tokens++
		m.handedTokens++
	}
	if m.nwait == 0 {
		if starving {
			handOn()
		}
		return
	}
	sema := m.semaphore()
	sema.Lock(p)
	s.sched.spend(p, s.sched.costs.RuntimeLock)
	if m.nwait == 0 {
		if starving {
			handOn()
		}
		sema.Unlock(p)
		return
	}
	w := m.waiters.pop()
	m.nwait--
	if starving {
		m.handedTo = w // stays held, now by w
	}
	sema.Unlock(p)
	m.note("woke", w, p)
	s.wake(w)
	s.sched.spend(p, s.sched.costs.MutexHandoff)
	if starving && !s.stopping && !s.sched.quirks.StarvingKeepsP {
		s.sched.yield(p)
	}
}

// semaphore is the runtime lock of the mutex's semaphore queue.
func (m *Mutex) semaphore() *RuntimeMutex {
	if m.sema == nil {
		m.sema = NewRuntimeMutex(m.sim, m.name+" semaphore")
	}
	return m.sema
}

func (m *Mutex) Line() *Line { return m.line }
