package aggregate

import (
	"context"
	"math/rand/v2"
	"time"
)

// sampleEvery is the stride of the latency sample: each producer's events
// whose index is a multiple of it are timed from production to the end of
// their handle call. Timing every event would add two clock reads to an
// event that otherwise costs a channel operation.
const sampleEvery = 16

// ctxEvery is how many events a producer sends between looks at its
// context: a look on every event would add a channel operation to each of
// the ones measured.
const ctxEvery = 1024

// stream makes one producer's events: runs of one type whose lengths are
// drawn independently from a geometric distribution of mean runLength, each
// run of another type than the run before it, so that the runs as made
// have exactly that distribution. The same seed and producer number give
// the same events.
type stream struct {
	rng  *rand.Rand
	stay float64 // probability that the next event continues the run: 1 - 1/runLength
	cur  Type
	n    int // events made so far
}

// newStream returns producer number id's stream for the given seed.
func newStream(seed uint64, id int, runLength float64) *stream {
	return &stream{
		rng:  rand.New(rand.NewPCG(seed, uint64(id)^0x9e3779b97f4a7c15)),
		stay: 1 - 1/runLength,
	}
}

// next returns the type of the stream's next event.
func (s *stream) next() Type {
	switch {
	case s.n == 0:
		s.cur = Type(s.rng.IntN(types))
	case s.rng.Float64() >= s.stay:
		s.cur = (s.cur + 1 + Type(s.rng.IntN(types-1))) % types
	}
	s.n++
	return s.cur
}

// produce sends n events of s on ch, stamping every sampleEvery-th with
// its birth since base, and returns how many of each type it sent. It
// stops early, returning what it sent, once ctx is done.
func produce(ctx context.Context, ch chan<- Event, s *stream, n int, base time.Time) (sent [types]int64) {
	done := ctx.Done()
	for i := range n {
		if i%ctxEvery == ctxEvery-1 {
			select {
			case <-done:
				return sent
			default:
			}
		}
		e := Event{Type: s.next()}
		if i%sampleEvery == 0 {
			e.born = max(int64(time.Since(base)), 1)
		}
		ch <- e
		sent[e.Type]++
	}
	return sent
}
