package meter

import (
	"sync"
	"testing"
)

// The cost of metering, beside the plain primitives:
//
//	go test ./measure/meter -run '^$' -bench . -count 6 | benchstat -col /lock -
//
// Pair is a Lock/Unlock pair by one goroutine (uncontended); Parallel is
// the same pair by every P at once (b.RunParallel), contended, with the
// critical section empty: the worst case, where metering adds the most
// relative to the work.

func BenchmarkPair(b *testing.B) {
	b.Run("lock=sync.Mutex", func(b *testing.B) {
		var mu sync.Mutex
		for b.Loop() {
			mu.Lock()
			mu.Unlock()
		}
	})
	b.Run("lock=meter.Mutex", func(b *testing.B) {
		var mu Mutex
		for b.Loop() {
			mu.Lock()
			mu.Unlock()
		}
	})
	b.Run("lock=sync.RWMutex.R", func(b *testing.B) {
		var mu sync.RWMutex
		for b.Loop() {
			mu.RLock()
			mu.RUnlock()
		}
	})
	b.Run("lock=meter.RWMutex.R", func(b *testing.B) {
		var mu RWMutex
		for b.Loop() {
			mu.RLock()
			mu.RUnlock()
		}
	})
	b.Run("lock=chan", func(b *testing.B) {
		c := make(chan int, 1)
		for b.Loop() {
			c <- 1
			<-c
		}
	})
	b.Run("lock=meter.Chan", func(b *testing.B) {
		c := NewChan[int]("c", 1)
		for b.Loop() {
			c.Send(1)
			c.Recv()
		}
	})
}

func BenchmarkParallel(b *testing.B) {
	b.Run("lock=sync.Mutex", func(b *testing.B) {
		var mu sync.Mutex
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				mu.Lock()
				mu.Unlock()
			}
		})
	})
	b.Run("lock=meter.Mutex", func(b *testing.B) {
		var mu Mutex
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				mu.Lock()
				mu.Unlock()
			}
		})
	})
}
