package sim

// RWMutex is a virtual sync.RWMutex: any number of readers, or one writer,
// who waits for the readers in and keeps new ones out, as Go's does. Under
// the go policy its state is one word [Line] every RLock and RUnlock adds
// to, so readers on many cores queue for it though none waits for another.
type RWMutex struct {
	sim  *Sim
	name string
	line *Line
	w    *Mutex // writers' turn

	readers int     // holders: readers, or the writer
	writing bool    // a writer holds it, or waits for the readers in to leave
	writer  *Proc   // that writer, while it waits
	waiting []*Proc // readers kept out by a writer
}

// NewRWMutex returns an unlocked read-write mutex named name.
func NewRWMutex(s *Sim, name string) *RWMutex {
	l := NewWordLine(s)
	return &RWMutex{sim: s, name: name, line: l, w: &Mutex{sim: s, name: name, line: l}}
}

func (rw *RWMutex) Name() string { return rw.name }

// RLock takes it to read, waiting while a writer holds it or waits to.
func (rw *RWMutex) RLock(p *Proc) {
	rw.line.Write(p) // readerCount.Add(1)
	if rw.writing {
		rw.waiting = append(rw.waiting, p)
		p.block() // the writer's Unlock counts p in
	} else {
		rw.readers++
	}
}

// RUnlock lets go of a read hold; the last reader out lets a waiting
// writer in.
func (rw *RWMutex) RUnlock(p *Proc) {
	if rw.readers == 0 {
		panic("sim: RUnlock of unlocked RWMutex " + rw.name)
	}
	rw.line.Write(p) // readerCount.Add(-1)
	if rw.readers--; rw.readers == 0 && rw.writer != nil {
		w := rw.writer
		rw.writer = nil
		rw.sim.wake(w)
		rw.handoff(p)
	}
}

// Lock takes it to write: after the writers before, then once the
// readers in have left.
func (rw *RWMutex) Lock(p *Proc) {
	rw.w.Lock(p)
	rw.line.Write(p) // readerCount.Add(-rwmutexMaxReaders)
	rw.writing = true
	if rw.readers > 0 {
		rw.writer = p
		p.block() // the last reader out wakes p
	}
	rw.readers++
}

// Unlock lets go of a write hold, letting in every reader it kept out.
func (rw *RWMutex) Unlock(p *Proc) {
	if !rw.writing || rw.readers != 1 {
		panic("sim: Unlock of RWMutex " + rw.name + " not locked to write")
	}
	rw.line.Write(p) // readerCount.Add(rwmutexMaxReaders)
	rw.readers, rw.writing = 0, false
	for _, r := range rw.waiting {
		rw.readers++
		rw.sim.wake(r)
		rw.handoff(p)
	}
	clear(rw.waiting)
	rw.waiting = rw.waiting[:0]
	rw.w.Unlock(p)
}

// handoff charges p, under the go policy, for readying a waiter.
func (rw *RWMutex) handoff(p *Proc) {
	if g := rw.sim.sched; g != nil {
		g.spend(p, g.costs.MutexHandoff)
	}
}

func (rw *RWMutex) Line() *Line { return rw.line }
