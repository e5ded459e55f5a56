package book

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// instrumentNames are the instruments orders are placed on.
func instrumentNames() []string {
	out := make([]string, 256)
	for i := range out {
		out[i] = fmt.Sprintf("SYM%03d", i)
	}
	return out
}

// BenchmarkBook places orders from every CPU at once, on random
// instruments and prices, in each design.
func BenchmarkBook(b *testing.B) {
	for _, d := range []struct {
		name string
		make func() Book
	}{{"onelock", func() Book { return NewLocked() }}, {"sharded", func() Book { return NewSharded() }}} {
		b.Run("design="+d.name, func(b *testing.B) {
			bk, names := d.make(), instrumentNames()
			var workers atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				w := workers.Add(1)
				r := rand.New(rand.NewPCG(w, 7))
				for id := w << 40; pb.Next(); id++ {
					o := Order{ID: id, Instrument: names[r.IntN(len(names))], Buy: r.IntN(2) == 0,
						Price: 100 + r.Int64N(8), Qty: 1 + r.Int64N(10)}
					bk.Place(o)
				}
			})
		})
	}
}

func TestPlace(t *testing.T) {
	for _, bk := range []Book{NewLocked(), NewSharded()} {
		bk.Place(Order{ID: 1, Instrument: "A", Price: 10, Qty: 3})
		if got := bk.Place(Order{ID: 2, Instrument: "A", Price: 10, Qty: 4}); got != 7 {
			t.Errorf("%T: two orders of 3 and 4 at one price rest %d, want 7", bk, got)
		}
		if got := bk.Place(Order{ID: 3, Instrument: "A", Buy: true, Price: 10, Qty: 5}); got != 5 {
			t.Errorf("%T: a buy at the price of two sells rests %d, want 5 (its own side)", bk, got)
		}
		for i := range 100 {
			bk.Place(Order{ID: uint64(10 + i), Instrument: "B", Price: 1, Qty: 1})
		}
	}
}
