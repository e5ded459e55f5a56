//go:build replica

package main

import (
	"sync/atomic"
	_ "unsafe" // go:linkname
)

// The runtime's functions behind sync.Mutex, linked by name as the
// standard library's internal/sync links them, which the linker allows
// only with -ldflags=-checklinkname=0: hence the build tag.
//
//go:linkname semacquireMutex internal/sync.runtime_SemacquireMutex
func semacquireMutex(s *uint32, lifo bool, skipframes int)

//go:linkname semrelease internal/sync.runtime_Semrelease
func semrelease(s *uint32, handoff bool, skipframes int)

//go:linkname canSpin internal/sync.runtime_canSpin
func canSpin(i int) bool

//go:linkname doSpin internal/sync.runtime_doSpin
func doSpin()

//go:linkname nanotime internal/sync.runtime_nanotime
func nanotime() int64

// replica is sync.Mutex's algorithm (Go 1.26) on the runtime's own
// semaphore and spinning, counting which of its paths each Lock and
// Unlock took: what the engine's sim.Mutex has to reproduce, seen from
// inside on the real machine.
type replica struct {
	state int32
	sema  uint32
}

const (
	locked = 1 << iota
	woken
	starvingBit
	waiterShift = iota

	starvation = 1e6 // ns a waiter waits before the mutex starves
	activeSpin = 4   // the most a Lock spins (the runtime's active_spin)
)

func (m *replica) Lock(c *paths) {
	if atomic.CompareAndSwapInt32(&m.state, 0, locked) {
		c.fast++
		return
	}
	var waitStart int64
	starving, awoke, slept := false, false, false
	iter := 0
	old := atomic.LoadInt32(&m.state)
	for {
		if old&(locked|starvingBit) == locked && canSpin(iter) {
			if !awoke && old&woken == 0 && old>>waiterShift != 0 &&
				atomic.CompareAndSwapInt32(&m.state, old, old|woken) {
				awoke = true
			}
			doSpin()
			c.spins++
			iter++
			old = atomic.LoadInt32(&m.state)
			continue
		}
		next := old
		if old&starvingBit == 0 {
			next |= locked
		}
		if old&(locked|starvingBit) != 0 {
			next += 1 << waiterShift
		}
		if starving && old&locked != 0 {
			next |= starvingBit
		}
		if awoke {
			next &^= woken
		}
		if !atomic.CompareAndSwapInt32(&m.state, old, next) {
			c.swapsLost++
			old = atomic.LoadInt32(&m.state)
			continue
		}
		if old&(locked|starvingBit) == 0 {
			if slept {
				c.tookWoken++
			} else {
				c.took++
			}
			return
		}
		lifo := waitStart != 0
		if waitStart == 0 {
			waitStart = nanotime()
		}
		c.slept++
		if iter >= activeSpin {
			c.sleptSpun++
		}
		slept = true
		semacquireMutex(&m.sema, lifo, 1)
		starving = starving || nanotime()-waitStart > starvation
		old = atomic.LoadInt32(&m.state)
		if old&starvingBit != 0 {
			delta := int32(locked - 1<<waiterShift)
			if !starving || old>>waiterShift == 1 {
				delta -= starvingBit
			}
			atomic.AddInt32(&m.state, delta)
			c.handed++
			return
		}
		awoke = true
		iter = 0
	}
}

func (m *replica) Unlock(c *paths) {
	next := atomic.AddInt32(&m.state, -locked)
	if next == 0 {
		return
	}
	c.unlockSlow++
	if next&starvingBit != 0 {
		c.handoffs++
		semrelease(&m.sema, true, 1)
		return
	}
	old := next
	for {
		if old>>waiterShift == 0 || old&(locked|woken|starvingBit) != 0 {
			return
		}
		if atomic.CompareAndSwapInt32(&m.state, old, (old-1<<waiterShift)|woken) {
			c.wakes++
			semrelease(&m.sema, false, 1)
			return
		}
		old = atomic.LoadInt32(&m.state)
	}
}

// haveReplica says this build has the replica.
const haveReplica = true
