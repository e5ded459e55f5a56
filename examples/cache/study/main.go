// Command study compares three ways to share a map between goroutines (one
// mutex, 16 shards, sync.Map) under a read-heavy and a write-heavy load:
// brewput study measures each variant on 1, 2, … CPUs, its locks metered,
// and reports what each one's locks were held and waited for; why finds by
// experiment whether a lock limits a variant, and predict models each
// variant from its meters beyond the machine's CPUs.
//
//	go run ./cmd/brewput study ./examples/cache/study --cpus 1,2 --dur 300ms
//	go run ./cmd/brewput study ./examples/cache/study why --variant mutex-write --cpus 2
//	go run ./cmd/brewput study ./examples/cache/study predict --cpus 1-64
//	go run ./cmd/brewput study ./examples/cache/study --help
package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/brewput/brewput/examples/cache"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/study"
)

func main() { study.Main(cacheStudy()) }

// cacheStudy is every design under every load of package cache.
func cacheStudy() study.Study {
	s := study.Study{
		Name:    "cache",
		Summary: "a map shared by goroutines: one mutex, 16 shards, sync.Map; read-heavy and write-heavy",
		Unit:    "ops",
	}
	for _, d := range designs() {
		for _, l := range cache.Loads() {
			s.Variants = append(s.Variants, variant(d, l))
		}
	}
	return s
}

// design makes one kind of cache with its meters.
type design struct {
	name, summary string
	make          func() (cache.Cache, []meter.Meter)
}

func designs() []design {
	return []design{
		{"mutex", "one map behind one mutex", func() (cache.Cache, []meter.Meter) {
			mu := meter.NewMutex("cache")
			return cache.NewLocked(mu), []meter.Meter{mu}
		}},
		{"sharded", fmt.Sprintf("%d maps, each behind its own mutex", cache.Shards), func() (cache.Cache, []meter.Meter) {
			var meters []meter.Meter
			c := cache.NewSharded(func(i int) sync.Locker {
				mu := meter.NewMutex(fmt.Sprintf("shard#%d", i+1))
				meters = append(meters, mu)
				return mu
			})
			return c, meters
		}},
		{"syncmap", "sync.Map (its lock is internal: nothing to meter)", func() (cache.Cache, []meter.Meter) {
			return &cache.SyncMap{}, nil
		}},
	}
}

// variant is design d under load l: Setup makes and fills the cache, Op
// does one Get or Set of a random key.
func variant(d design, l cache.Load) study.Variant {
	var c cache.Cache
	var meters []meter.Meter
	return study.Variant{
		Name:    d.name + "-" + l.Name,
		Summary: fmt.Sprintf("%s; %d %% writes", d.summary, l.WritePercent),
		Setup: func(context.Context) error {
			c, meters = d.make()
			cache.Fill(c)
			return nil
		},
		Op: func(context.Context) error {
			l.Op(c, rand.Uint64())
			return nil
		},
		Meters: func() []meter.Meter { return meters },
	}
}
