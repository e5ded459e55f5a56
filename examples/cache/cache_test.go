package cache

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/brewput/brewput/measure/bench"
)

// designs are the caches compared, each made fresh, with plain sync
// locks (padded, for the shards): what a program would use.
func designs() []struct {
	name string
	make func() Cache
} {
	return []struct {
		name string
		make func() Cache
	}{
		{"mutex", func() Cache { return NewLocked(&sync.Mutex{}) }},
		{"sharded", func() Cache { return NewSharded(func(int) sync.Locker { return &PaddedMutex{} }) }},
		{"syncmap", func() Cache { return &SyncMap{} }},
	}
}

// BenchmarkCache runs every design under every load by every P at once
// (bench.Parallel, which also times each call):
//
//	brewput bench ./examples/cache -bench . -cpu 1,2 -count 6
//	go test ./examples/cache -run '^$' -bench . -cpu 1,2 -count 6 | benchstat -col /gomaxprocs -
func BenchmarkCache(b *testing.B) {
	for _, d := range designs() {
		b.Run("design="+d.name, func(b *testing.B) {
			for _, l := range Loads() {
				b.Run("load="+l.Name, func(b *testing.B) {
					c := d.make()
					Fill(c)
					b.ResetTimer()
					bench.Parallel(b, func() { l.Op(c, rand.Uint64()) })
				})
			}
		})
	}
}

// TestCaches checks that each design is a map: what is set is got, by
// many goroutines at once (the race detector watches).
func TestCaches(t *testing.T) {
	for _, d := range designs() {
		t.Run(d.name, func(t *testing.T) {
			c := d.make()
			if _, ok := c.Get(1); ok {
				t.Fatal("an empty cache has key 1")
			}
			Fill(c)
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					for k := g; k < Keys; k += 4 {
						c.Set(k, -k)
					}
				})
			}
			wg.Wait()
			for k := range Keys {
				if v, ok := c.Get(k); !ok || v != -k {
					t.Fatalf("key %d: %d, %v; want %d", k, v, ok, -k)
				}
			}
			for _, l := range Loads() {
				for r := range uint64(1000) {
					l.Op(c, r*0x9e3779b97f4a7c15)
				}
			}
		})
	}
}

// TestLoadsMix checks each load's share of writes over many draws.
func TestLoadsMix(t *testing.T) {
	for _, l := range Loads() {
		rec := &counting{}
		r := rand.New(rand.NewPCG(1, 2))
		for range 100000 {
			l.Op(rec, r.Uint64())
		}
		if got := rec.sets * 100 / (rec.sets + rec.gets); got < l.WritePercent-1 || got > l.WritePercent+1 {
			t.Errorf("load %s: %d %% writes, want %d", l.Name, got, l.WritePercent)
		}
	}
}

// counting is a Cache that counts its calls.
type counting struct{ gets, sets int }

func (c *counting) Get(int) (int, bool) { c.gets++; return 0, false }
func (c *counting) Set(int, int)        { c.sets++ }
