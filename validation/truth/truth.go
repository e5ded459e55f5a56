// Package truth is a table of concurrent designs whose answer to "what
// limits this on 2 CPUs?" is known, for checking brewput why against: one
// lock held long, one lock held 10–20 ns, 64 shard locks, a lock per
// goroutine, no lock (an atomic counter), an RWMutex taken by readers
// only, and a channel pipeline with one slow stage. Each design is here
// with plain sync locks and channels, as a program would be written: its
// benchmark (truth_test.go, BenchmarkTruth/design=NAME) is what brewput why
// PKG -bench explains with no edit; study/ is the same designs with
// brewput's meters, for brewput study why. Designs says the verdict each
// must get, and BenchmarkRelief/design=NAME relieves what limits each, so
// that the truth is measured with plain go test, not assumed:
//
//	go test ./truth -run '^$' -bench 'Truth|Relief' -cpu 2 -count 6
//	go run ./truth/table
//
// The work is spun in loops of dependent multiplications, about a
// nanosecond a step, never by reading the clock.
package truth

import (
	"sync"
	"sync/atomic"
)

// Verdict is what brewput why must answer of a design.
type Verdict string

// The verdicts.
const (
	// Limits: the named part limits the design; relieving it gains more
	// than a fifth on 2 CPUs.
	Limits Verdict = "limits"
	// DoesNot: no single lock (or channel) limits it; relieving the
	// design's locks gains a few percent at most.
	DoesNot Verdict = "does not"
	// NoLock: it takes no lock (a benchmark) or has no metered part (a
	// study): nothing to stretch, and no lock limits it.
	NoLock Verdict = "no lock"
)

// Design is one row of the table: what brewput why must answer of its
// benchmark and of its study variant, both named Name.
type Design struct {
	Name    string
	Summary string
	// Bench is the verdict of brewput why on BenchmarkTruth/design=Name,
	// BenchPart a piece of the limit's name where it is Limits (the lock's
	// site, as lockwatch names it).
	Bench     Verdict
	BenchPart string
	// Study is the verdict of brewput study why on the variant Name,
	// StudyPart a piece of the limit's name where it is Limits.
	Study     Verdict
	StudyPart string
	// Relief says what BenchmarkRelief/design=Name changes: the change
	// whose gain on 2 CPUs makes the verdict true.
	Relief string
}

// Designs is the truth table.
func Designs() []Design {
	return []Design{
		{Name: "onelock-long", Summary: "one mutex, held about 1.2 µs of a 1.5 µs operation",
			Bench: Limits, BenchPart: "(*OneLock).Do", Study: Limits, StudyPart: "the lock mutex",
			Relief: "a lock per goroutine, the same hold"},
		{Name: "onelock-short", Summary: "one mutex, held 10–20 ns of an operation of about 30 ns",
			Bench: Limits, BenchPart: "(*OneLock).Do", Study: Limits, StudyPart: "the lock mutex",
			Relief: "a lock per goroutine, the same hold"},
		{Name: "shards64", Summary: "64 mutexes, one chosen at random, held 1 µs of 1.5 µs",
			Bench: DoesNot, Study: DoesNot, Relief: "a lock per goroutine, the same hold"},
		{Name: "pergoroutine", Summary: "a mutex per goroutine, held 1 µs of 1.5 µs",
			Bench: DoesNot, Study: DoesNot, Relief: "no lock"},
		{Name: "atomics", Summary: "no lock: 1.5 µs of work and a shared atomic counter",
			Bench: NoLock, Study: NoLock, Relief: "a counter per goroutine"},
		{Name: "rwreaders", Summary: "one RWMutex taken by readers only, read for 3 µs of 3.3 µs",
			Bench: DoesNot, Study: DoesNot, Relief: "no lock (the data never changes)"},
		{Name: "pipeline", Summary: "workers hand items to one slow stage (2 µs an item) over channels",
			Bench: NoLock, Study: Limits, StudyPart: "slowstage", Relief: "the slow stage at half its work"},
	}
}

// The designs' work, in Spin steps.
const (
	LongHold, LongOutside   = 1200, 300
	ShortHold, ShortOutside = 12, 15
	ShardHold, ShardOutside = 1000, 500
	OwnHold, OwnOutside     = 1000, 500
	AtomicsWork             = 1500
	ReadHold, ReadOutside   = 3000, 300
	SlowStage               = 2000
	// Shards is how many locks shards64 has.
	Shards = 64
)

// Spin does n dependent steps of work, about a nanosecond each, and
// returns their result; out of line, so that it is kept.
//
//go:noinline
func Spin(n int) uint64 {
	x := uint64(n)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// OneLock is state behind one mutex.
type OneLock struct {
	mu  sync.Mutex
	sum uint64
}

// Do spins outside steps, then hold steps under the lock.
func (l *OneLock) Do(hold, outside int) {
	x := Spin(outside)
	l.mu.Lock()
	l.sum += Spin(hold) ^ x
	l.mu.Unlock()
}

// Sharded is Shards OneLocks, each on a cache line of its own.
type Sharded struct {
	shards [Shards]struct {
		OneLock
		_ [48]byte
	}
}

// Do does OneLock.Do on shard i mod Shards.
func (s *Sharded) Do(i uint64, hold, outside int) {
	s.shards[i%Shards].Do(hold, outside)
}

// Readers is data that never changes, read under an RWMutex's read lock.
type Readers struct {
	mu   sync.RWMutex
	seed uint64
}

// Read spins outside steps, then hold steps under the read lock.
func (r *Readers) Read(hold, outside int) uint64 {
	x := Spin(outside)
	r.mu.RLock()
	x ^= Spin(hold) + r.seed
	r.mu.RUnlock()
	return x
}

// Counter is a counter every goroutine adds to.
type Counter struct{ n atomic.Uint64 }

// Do spins work steps and counts them.
func (c *Counter) Do(work int) { c.n.Add(Spin(work) & 1) }

// Pipeline is workers handing items to one slow stage, a goroutine that
// spins a number of steps an item and hands it on to a sink.
type Pipeline struct {
	in, out chan uint64
	stages  sync.WaitGroup
	drained chan struct{}
}

// NewPipeline starts a pipeline whose slow stage spins work steps an
// item.
func NewPipeline(work int) *Pipeline {
	p := &Pipeline{in: make(chan uint64, 64), out: make(chan uint64, 64), drained: make(chan struct{})}
	p.stages.Go(func() {
		for v := range p.in {
			p.out <- Spin(work) ^ v
		}
	})
	go func() {
		for range p.out {
		}
		close(p.drained)
	}()
	return p
}

// Send hands v to the slow stage, waiting while its queue is full.
func (p *Pipeline) Send(v uint64) { p.in <- v }

// Close waits for every item sent to pass the pipeline and stops it.
func (p *Pipeline) Close() {
	close(p.in)
	p.stages.Wait()
	close(p.out)
	<-p.drained
}
