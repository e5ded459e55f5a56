// Package cache is an example of measuring one's own concurrent code with
// brewput: a map of int keys shared between goroutines behind one lock,
// split into 16 shards, or in a sync.Map, under read-heavy and write-heavy
// loads. cache_test.go has Go benchmarks for brewput bench; study/ is the
// same comparison as a study, whose meters time each design's locks.
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
// meter.Mutex in the study.
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

// PaddedMutex is a sync.Mutex alone on its 64-byte cache line: eight
// 8-byte mutexes allocated together share a line, and every Lock takes it
// from the CPU that last locked a neighbour (false sharing), so shards
// meant to be independent slow each other down.
type PaddedMutex struct {
	sync.Mutex
	_ [64 - 8]byte
}

// Shards is the number of shards of a Sharded cache.
const Shards = 16

// Sharded is Shards maps, each behind its own lock, a key's shard its
// value modulo Shards, so goroutines on different keys rarely meet.
type Sharded struct {
	shards [Shards]*Locked
}

// NewSharded returns an empty sharded cache whose i'th shard is guarded by
// lock(i): a PaddedMutex, or a meter.Mutex (padded too).
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

// SyncMap is a sync.Map, made for keys written once and read often, or by
// goroutines on disjoint keys.
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

// Load is a mix of reads and writes; WritePercent is the share of Sets.
type Load struct {
	Name         string
	WritePercent int
}

// Loads are the two mixes: read-heavy (10 % Sets) and write-heavy (50 %).
func Loads() []Load {
	return []Load{{"read", 10}, {"write", 50}}
}

// Op does a Get or a Set of load l on c, the key drawn from r.
func (l Load) Op(c Cache, r uint64) {
	key := int(r % Keys)
	if int(r>>32%100) < l.WritePercent {
		c.Set(key, key)
		return
	}
	c.Get(key)
}
