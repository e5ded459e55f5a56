package truth

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// BenchmarkTruth runs each design from every CPU at once
// (b.RunParallel), as written, with no edit for brewput:
//
//	brewput why ./truth -bench '^BenchmarkTruth/design=onelock-long$' --cpus 2
func BenchmarkTruth(b *testing.B) {
	for _, d := range Designs() {
		b.Run("design="+d.Name, func(b *testing.B) { run(b, d.Name, false) })
	}
}

// BenchmarkRelief runs each design with what limits it relieved
// (Design.Relief): its gain over BenchmarkTruth on 2 CPUs is the truth.
//
//	go test ./truth -run '^$' -bench 'Truth|Relief' -cpu 2 -count 6
func BenchmarkRelief(b *testing.B) {
	for _, d := range Designs() {
		b.Run("design="+d.Name, func(b *testing.B) { run(b, d.Name, true) })
	}
}

// run runs design name, or its relief.
func run(b *testing.B, name string, relieved bool) {
	switch name {
	case "onelock-long", "onelock-short":
		hold, outside := LongHold, LongOutside
		if name == "onelock-short" {
			hold, outside = ShortHold, ShortOutside
		}
		shared := &OneLock{}
		b.RunParallel(func(pb *testing.PB) {
			l := shared
			if relieved {
				l = &OneLock{}
			}
			for pb.Next() {
				l.Do(hold, outside)
			}
		})
	case "shards64":
		shared := &Sharded{}
		b.RunParallel(func(pb *testing.PB) {
			if relieved {
				own := &OneLock{}
				for pb.Next() {
					own.Do(ShardHold, ShardOutside)
				}
				return
			}
			for pb.Next() {
				shared.Do(rand.Uint64(), ShardHold, ShardOutside)
			}
		})
	case "pergoroutine":
		b.RunParallel(func(pb *testing.PB) {
			own := &OneLock{}
			var sum uint64
			for pb.Next() {
				if relieved {
					sum += Spin(OwnHold) ^ Spin(OwnOutside)
					continue
				}
				own.Do(OwnHold, OwnOutside)
			}
			own.sum += sum
		})
	case "atomics":
		shared := &Counter{}
		b.RunParallel(func(pb *testing.PB) {
			c := shared
			if relieved {
				c = &Counter{}
			}
			for pb.Next() {
				c.Do(AtomicsWork)
			}
		})
	case "rwreaders":
		r := &Readers{seed: 7}
		b.RunParallel(func(pb *testing.PB) {
			var sum uint64
			for pb.Next() {
				if relieved {
					sum += Spin(ReadOutside) ^ (Spin(ReadHold) + r.seed)
					continue
				}
				sum += r.Read(ReadHold, ReadOutside)
			}
			r.seed += sum & 0 // keeps sum
		})
	case "pipeline":
		work := SlowStage
		if relieved {
			work /= 2
		}
		p := NewPipeline(work)
		b.RunParallel(func(pb *testing.PB) {
			for v := uint64(0); pb.Next(); v++ {
				p.Send(v)
			}
		})
		p.Close()
	default:
		b.Fatalf("no design %q", name)
	}
}

// TestDesigns runs every design and its relief a little from several
// goroutines at once, under the race detector in CI: each is safe as
// written; the table names each once, with a verdict for both forms and
// the part a Limits verdict must name.
func TestDesigns(t *testing.T) {
	var names []string
	for _, d := range Designs() {
		if slices.Contains(names, d.Name) {
			t.Errorf("design %s listed twice", d.Name)
		}
		names = append(names, d.Name)
		for _, v := range []struct {
			verdict Verdict
			part    string
		}{{d.Bench, d.BenchPart}, {d.Study, d.StudyPart}} {
			if !slices.Contains([]Verdict{Limits, DoesNot, NoLock}, v.verdict) || (v.verdict == Limits) != (v.part != "") {
				t.Errorf("%s: verdict %q naming %q: want limits with a part, or does not / no lock without", d.Name, v.verdict, v.part)
			}
		}
	}
	// Each design's types from four goroutines at once: safe as written.
	one, shards, readers, counter := &OneLock{}, &Sharded{}, &Readers{seed: 7}, &Counter{}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				one.Do(ShortHold, ShortOutside)
				shards.Do(uint64(g*200+i), 10, 10)
				readers.Read(10, 10)
				counter.Do(10)
			}
		})
	}
	wg.Wait()
	if got := counter.n.Load(); got > 800 {
		t.Errorf("counter %d after 800 adds of 0 or 1", got)
	}
}

// TestPipelineDelivers checks that every item sent passes the slow stage
// before Close returns.
func TestPipelineDelivers(t *testing.T) {
	p := NewPipeline(10)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				p.Send(uint64(g*100 + i))
			}
		})
	}
	wg.Wait()
	p.Close()
	if len(p.in) != 0 || len(p.out) != 0 {
		t.Errorf("after Close, %d items wait for the stage and %d for the sink", len(p.in), len(p.out))
	}
}
