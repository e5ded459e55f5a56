// Command study is package truth's table of designs as a study: the same
// work and locks, each lock and channel metered (package meter), so that
// brewput study why stretches them; truth.Designs says the verdict each
// variant must get. Each design but atomics has a variant NAME-relief
// beside it, with what limits it relieved (truth.Design.Relief), against
// which the study's truth is measured:
//
//	go run github.com/brewput/brewput/cmd/brewput study ./truth/study why --variant onelock-long --cpus 2
//	go run github.com/brewput/brewput/cmd/brewput study ./truth/study --cpus 2 --variants onelock-short,onelock-short-relief
//	go run ./truth/table
//
// An operation of onelock-short is Batch of the design's: the harness's
// own time per operation (a few hundred nanoseconds: it times each one)
// would otherwise hide a 15 ns hold, and the lock would not limit the
// study as it limits the benchmark.
package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/study"
	"github.com/brewput/brewput/validation/truth"
)

func main() { study.Main(truthStudy()) }

// truthStudy is every design of the table, as a variant named alike.
func truthStudy() study.Study {
	s := study.Study{Name: "truth", Summary: "designs whose limit on 2 CPUs is known (validation/truth)", Unit: "ops"}
	for _, d := range truth.Designs() {
		s.Variants = append(s.Variants, variant(d, false))
		if d.Name != "atomics" {
			s.Variants = append(s.Variants, variant(d, true))
		}
	}
	return s
}

// Batch is how many of onelock-short's operations one of its study's is.
const Batch = 16

// variant is design d, or its relief, with its locks and channels
// metered.
func variant(d truth.Design, relieved bool) study.Variant {
	v := study.Variant{Name: d.Name, Summary: d.Summary}
	if relieved {
		v.Name, v.Summary = d.Name+"-relief", d.Name+" relieved: "+d.Relief
	}
	var meters []meter.Meter
	v.Meters = func() []meter.Meter { return meters }
	if relieved && d.Name != "pipeline" {
		reliefOf(&v, d.Name, &meters)
		return v
	}
	switch d.Name {
	case "onelock-long", "onelock-short":
		hold, outside, batch := truth.LongHold, truth.LongOutside, 1
		if d.Name == "onelock-short" {
			hold, outside, batch = truth.ShortHold, truth.ShortOutside, Batch
		}
		var mu *meter.Mutex
		var sum uint64
		v.Setup = func(context.Context) error {
			mu = meter.NewMutex("lock")
			meters = []meter.Meter{mu}
			return nil
		}
		v.Op = func(context.Context) error {
			for range batch {
				x := truth.Spin(outside)
				mu.Lock()
				sum += truth.Spin(hold) ^ x
				mu.Unlock()
			}
			return nil
		}
	case "shards64":
		// Each shard on a cache line of its own, as truth.Sharded's.
		var shards [truth.Shards]struct {
			mu  *meter.Mutex
			sum uint64
			_   [48]byte
		}
		v.Setup = func(context.Context) error {
			meters = nil
			for i := range shards {
				shards[i].mu = meter.NewMutex(fmt.Sprintf("shard#%d", i+1))
				meters = append(meters, shards[i].mu)
			}
			return nil
		}
		v.Op = func(context.Context) error {
			x := truth.Spin(truth.ShardOutside)
			s := &shards[rand.IntN(truth.Shards)]
			s.mu.Lock()
			s.sum += truth.Spin(truth.ShardHold) ^ x
			s.mu.Unlock()
			return nil
		}
	case "pergoroutine":
		ownLocks(&v, &meters, truth.OwnHold, truth.OwnOutside, 1)
	case "atomics":
		var n atomic.Uint64
		v.Op = func(context.Context) error {
			n.Add(truth.Spin(truth.AtomicsWork) & 1)
			return nil
		}
	case "rwreaders":
		var mu *meter.RWMutex
		var seed uint64 = 7
		v.Setup = func(context.Context) error {
			mu = meter.NewRWMutex("readers")
			meters = []meter.Meter{mu}
			return nil
		}
		v.Op = func(context.Context) error {
			x := truth.Spin(truth.ReadOutside)
			mu.RLock()
			x ^= truth.Spin(truth.ReadHold) + seed
			mu.RUnlock()
			if x == 0 {
				return fmt.Errorf("read nothing")
			}
			return nil
		}
	case "pipeline":
		work := truth.SlowStage
		if relieved {
			work /= 2
		}
		var intake, slow *meter.Chan[uint64]
		var stopped sync.WaitGroup
		v.Setup = func(context.Context) error {
			intake, slow = meter.NewChan[uint64]("intake", 64), meter.NewChan[uint64]("slowstage", 64)
			meters = []meter.Meter{intake.Sends(), intake.Receives(), slow.Sends(), slow.Receives()}
			stopped.Go(func() {
				for {
					v, ok := intake.Recv()
					if !ok {
						slow.Close()
						return
					}
					slow.Send(truth.Spin(work) ^ v)
				}
			})
			stopped.Go(func() {
				for {
					if _, ok := slow.Recv(); !ok {
						return
					}
				}
			})
			return nil
		}
		v.Op = func(context.Context) error {
			intake.Send(1)
			return nil
		}
		v.Teardown = func(context.Context) error {
			intake.Close()
			stopped.Wait()
			return nil
		}
	default:
		panic("truth study: no variant for design " + d.Name)
	}
	return v
}

// reliefOf makes v design name's relief, but a pipeline's.
func reliefOf(v *study.Variant, name string, meters *[]meter.Meter) {
	switch name {
	case "onelock-long":
		ownLocks(v, meters, truth.LongHold, truth.LongOutside, 1)
	case "onelock-short":
		ownLocks(v, meters, truth.ShortHold, truth.ShortOutside, Batch)
	case "shards64":
		ownLocks(v, meters, truth.ShardHold, truth.ShardOutside, 1)
	case "pergoroutine":
		var sum atomic.Uint64
		v.Op = func(context.Context) error {
			sum.Store(truth.Spin(truth.OwnHold) ^ truth.Spin(truth.OwnOutside))
			return nil
		}
	case "rwreaders":
		v.Op = func(context.Context) error {
			if truth.Spin(truth.ReadOutside)^(truth.Spin(truth.ReadHold)+7) == 0 {
				return fmt.Errorf("read nothing")
			}
			return nil
		}
	default:
		panic("truth study: no relief for design " + name)
	}
}

// ownLocks makes v's operation batch times the work of a lock of its
// own: outside steps, then hold steps under the lock. An operation has no
// goroutine of its own to keep a lock in: it takes one from a sync.Pool,
// which hands each lock to one taker at a time, of a set made ahead so
// that the meters are known.
func ownLocks(v *study.Variant, meters *[]meter.Meter, hold, outside, batch int) {
	const own = 16
	var pool sync.Pool
	v.Setup = func(context.Context) error {
		*meters = nil
		var made atomic.Int64
		locks := make([]*ownLock, own)
		for i := range locks {
			locks[i] = &ownLock{mu: meter.NewMutex(fmt.Sprintf("own#%d", i+1))}
			*meters = append(*meters, locks[i].mu)
		}
		pool.New = func() any { return locks[(made.Add(1)-1)%own] }
		return nil
	}
	v.Op = func(context.Context) error {
		l := pool.Get().(*ownLock)
		for range batch {
			x := truth.Spin(outside)
			l.mu.Lock()
			l.sum += truth.Spin(hold) ^ x
			l.mu.Unlock()
		}
		pool.Put(l)
		return nil
	}
}

// ownLock is a lock one goroutine holds as its own, with what it guards,
// on a cache line of its own: the locks are made one after another, and
// their sums, written under them, would otherwise share lines between
// CPUs.
type ownLock struct {
	mu  *meter.Mutex
	sum uint64
	_   [48]byte
}
