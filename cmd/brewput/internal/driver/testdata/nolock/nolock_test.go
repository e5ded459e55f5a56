package nolock

import (
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkNoLock/design=atomics adds to one atomic counter from every
// goroutine; design=rare too, taking a mutex after every 4096th add;
// design=pipeline hands items to one stage over a channel.
func BenchmarkNoLock(b *testing.B) {
	b.Run("design=atomics", func(b *testing.B) {
		c := &Counter{}
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				c.Add(1500)
			}
		})
	})
	b.Run("design=rare", func(b *testing.B) {
		c := &Counter{}
		var mu sync.Mutex
		var n atomic.Uint64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				c.Add(10)
				if n.Add(1)%4096 == 0 { // a lock too rarely taken to queue anyone
					mu.Lock()
					mu.Unlock()
				}
			}
		})
	})
	b.Run("design=pipeline", func(b *testing.B) {
		s := NewStage(2000)
		b.RunParallel(func(pb *testing.PB) {
			for v := uint64(0); pb.Next(); v++ {
				s.Send(v)
			}
		})
		s.Close()
	})
}
