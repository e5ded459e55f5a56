package nolock

import "testing"

// BenchmarkNoLock/design=atomics adds to one atomic counter from every
// goroutine; design=pipeline hands items to one stage over a channel.
func BenchmarkNoLock(b *testing.B) {
	b.Run("design=atomics", func(b *testing.B) {
		c := &Counter{}
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				c.Add(1500)
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
