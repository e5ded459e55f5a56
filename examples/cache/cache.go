// Package cache is an example of measuring one's own concurrent code with
// brewput: three ways to share a map of int keys between goroutines — one
// lock around it, the same split into 16 shards, and sync.Map — under a
// read-heavy and a write-heavy load. cache_test.go has Go benchmarks for
// brewput bench; study/ is the same comparison as a study program
// (package study), whose meters say how long each design's locks were
// held and waited for.
package cache

import (
	"sync"
)

// Cache maps int keys to int values; every method is safe for concurrent
// use.
type Cache interface {
	Get(key int) (value int, ok bool)
	Set(key, value int)
}

// Locked is a map behind one lock: a sync.Mutex in the benchmarks, a
// meter.Mutex in the study, which counts how long it is held and waited
// for.
type Locked struct {
	mu sync.Locker
	m  map[int]int
}

// NewLocked returns an empty map guarded by mu.
func NewLocked(mu sync.Locker) *Locked { return &Locked{mu: mu, m: map[int]int{}} }

// Get returns the value of key, if it has one.
func (c *Locked) Get(key int) (int, bool) {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	return v, ok
}

// Set sets the value of key.
func (c *Locked) Set(key, value int) {
	c.mu.Lock()
	c.m[key] = value
	c.mu.Unlock()
}

// PaddedMutex is a sync.Mutex alone on its 64-byte cache line. The shards
// of a Sharded cache need their locks apart: eight 8-byte mutexes
// allocated one after the other share a line, and every Lock takes the
// line from the CPU that last locked a neighbour (false sharing), so that
// shards meant to be independent slow each other down.
type PaddedMutex struct {
	sync.Mutex
	_ [64 - 8]byte
}

// Shards is the number of shards of a Sharded cache.
const Shards = 16

// Sharded is Shards maps, each behind its own lock; a key's shard is the
// key modulo Shards, so that goroutines working on different keys rarely
// meet on one lock.
type Sharded struct {
	shards [Shards]*Locked
}

// NewSharded returns an empty sharded cache whose i'th shard is guarded
// by lock(i): a PaddedMutex, or a meter.Mutex (whose lock and counters
// are on lines of their own too).
func NewSharded(lock func(i int) sync.Locker) *Sharded {
	s := &Sharded{}
	for i := range s.shards {
		s.shards[i] = NewLocked(lock(i))
	}
	return s
}

func (s *Sharded) shard(key int) *Locked { return s.shards[uint(key)%Shards] }

// Get returns the value of key, if it has one.
func (s *Sharded) Get(key int) (int, bool) { return s.shard(key).Get(key) }

// Set sets the value of key.
func (s *Sharded) Set(key, value int) { s.shard(key).Set(key, value) }

// SyncMap is a sync.Map, which is made for keys written once and read
// many times, or by goroutines working on disjoint keys.
type SyncMap struct{ m sync.Map }

// Get returns the value of key, if it has one.
func (s *SyncMap) Get(key int) (int, bool) {
	v, ok := s.m.Load(key)
	if !ok {
		return 0, false
	}
	return v.(int), true
}

// Set sets the value of key.
func (s *SyncMap) Set(key, value int) { s.m.Store(key, value) }

// Keys is the number of distinct keys the loads use, all set by Fill.
const Keys = 1 << 14

// Fill sets every key the loads use, so that the loads' reads hit.
func Fill(c Cache) {
	for k := range Keys {
		c.Set(k, k)
	}
}

// Load is a mix of reads and writes.
type Load struct {
	Name string
	// WritePercent is the share of operations that are Sets.
	WritePercent int
}

// Loads are the two mixes measured: read-heavy, 90 % Gets, and
// write-heavy, 50 % Sets.
func Loads() []Load {
	return []Load{{"read", 10}, {"write", 50}}
}

// Op does one operation of load l on c: a Get or a Set of a key drawn
// from r, which must be the calling goroutine's own or safe for
// concurrent use.
func (l Load) Op(c Cache, r uint64) {
	key := int(r % Keys)
	if int(r>>32%100) < l.WritePercent {
		c.Set(key, key)
		return
	}
	c.Get(key)
}
