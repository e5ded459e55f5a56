package blueprint_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
)

// TestKindsFifo: under fifo, the resource kinds do what they say: readers
// of an RWMutex hold it together, a writer alone; a lock each customer has
// to itself never waits; a lock per CPU holds no customer back where
// there are as many CPUs; a word costs nothing; a step every 4 orders runs
// on one order in 4.
func TestKindsFifo(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		cpus       int
		want       float64 // orders a second
	}{
		{"readers share", `
resources: {rw: {kind: rwmutex}}
steps: [{name: read, duration: 1ms, shares: [rw]}]`, 4, 4000},
		{"a writer alone", `
resources: {rw: {kind: rwmutex}}
steps: [{name: write, duration: 1ms, holds: [rw]}]`, 4, 1000},
		{"a lock each customer's own", `
resources: {mu: {kind: mutex, per: customer}}
steps: [{name: work, duration: 1ms, holds: [mu]}]`, 4, 4000},
		{"a lock per CPU", `
resources: {mu: {kind: mutex, per: cpu}}
steps: [{name: work, duration: 1ms, holds: [mu]}]`, 4, 4000},
		{"the runtime's lock", `
resources: {lock: {kind: runtime}}
steps: [{name: work, duration: 1ms, holds: [lock]}]`, 4, 1000},
		{"an atomic word", `
resources: {n: {kind: atomic}}
steps: [{name: add, duration: 1ms, writes: [n], reads: [n]}]`, 4, 4000},
		{"one order in four", `
steps:
  - {name: often, duration: 1ms}
  - {name: seldom, duration: 4ms, every: 4}`, 1, 500},
	} {
		b := parse(t, c.yaml)
		r := run(t, b, fifo(c.cpus))
		if math.Abs(r.Throughput-c.want)/c.want > 0.01 {
			t.Errorf("%s: %.1f orders/s on %d CPUs, want %.0f", c.name, r.Throughput, c.cpus, c.want)
		}
	}
}

// TestPipelineWaitFalse: an order handed into a pipeline that it does not
// wait on goes on at once, so that producers run at their own pace while
// the consumer keeps up; waiting, each order takes the consumer's time
// too. Where the consumer is slower, it bounds them, its buffer full.
func TestPipelineWaitFalse(t *testing.T) {
	for _, c := range []struct {
		wait, consume string
		want          float64
	}{
		{"false", "250us", 2000}, // two producers of 1 ms each
		{"true", "250us", 1600},  // each waits 1.25 ms an order
		{"false", "4ms", 250},    // the consumer's pace
	} {
		b := parse(t, `
load: {customers: 2}
steps:
  - {name: produce, duration: 1ms}
  - pipeline: [{name: consume, duration: `+c.consume+`}]
    buffer: 10
    wait: `+c.wait)
		r := run(t, b, fifo(4))
		if math.Abs(r.Throughput-c.want)/c.want > 0.01 {
			t.Errorf("wait %s, consume %s: %.1f orders/s, want %.0f", c.wait, c.consume, r.Throughput, c.want)
		}
	}
}

// TestKindErrors: what a resource's kind refuses, in one line each.
func TestKindErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"resources: {a: {kind: semaphore}}\nsteps: [{name: s, duration: 1ms}]", `kind "semaphore": want mutex, rwmutex, runtime or word (atomic)`},
		{"resources: {a: {kind: word}}\nsteps: [{name: s, duration: 1ms, holds: [a]}]", `holds "a", a word: nobody holds a word; want reads: or writes:`},
		{"resources: {a: 1}\nsteps: [{name: s, duration: 1ms, shares: [a]}]", `shares "a", a mutex: want a resource of kind rwmutex`},
		{"resources: {a: {kind: rwmutex}}\nsteps: [{name: s, duration: 1ms, writes: [a]}]", `writes "a", a rwmutex: want a resource of kind word`},
		{"resources: {a: {kind: mutex, per: thread}}\nsteps: [{name: s, duration: 1ms}]", `per "thread": want cpu or customer`},
		{"resources: {a: {locks: 4, kind: word}}\nsteps: [{name: s, duration: 1ms}]", `locks with kind word: want {locks: N}, N mutexes, or {kind: rwmutex, locks: N}`},
		{"resources: {a: {kind: word, hashed: true}}\nsteps: [{name: s, duration: 1ms}]", `hashed without per: cpu`},
		{"resources: {a: {kind: word, per: cpu, hashed: maybe}}\nsteps: [{name: s, duration: 1ms}]", `hashed`},
		{"steps: [{name: s, duration: 1ms, every: 0}]", `every`},
		{"steps: [{pipeline: [{name: s, duration: 1ms}], wait: maybe}]", `wait`},
	} {
		_, err := blueprint.Parse("k.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v; want one line with %q", c.yaml, err, c.want)
		}
	}
}

// TestHashed: a word each CPU draws at random among as many as there are
// CPUs, as a striped counter's stripes: on two CPUs some seeds draw two
// stripes, whose adds go on side by side, and some draw one, whose adds
// take turns with its line; a word of each CPU's own never shares.
func TestHashed(t *testing.T) {
	const yaml = `
resources: {n: {kind: word, per: cpu, hashed: true}}
steps: [{name: add, duration: 30ns, writes: [n]}]`
	costs := sim.Costs{Switch: 58, Wake: 20 * time.Microsecond, Transfer: sim.Transfer{Socket: 40 * time.Nanosecond}}
	throughputs := func(y string) (apart, shared int) {
		b := parse(t, y)
		for seed := uint64(1); seed <= 8; seed++ {
			cfg := goAt(2)
			cfg.Costs, cfg.Policy.Seed = costs, seed
			cfg.Dur, cfg.Warmup = 200*time.Microsecond, 50*time.Microsecond
			r := run(t, b, cfg)
			if r.Throughput > 1.9/30e-9 {
				apart++
			} else if r.Throughput < 1.5/30e-9 {
				shared++
			}
		}
		return apart, shared
	}
	if apart, shared := throughputs(yaml); apart == 0 || shared == 0 {
		t.Errorf("hashed: %d of 8 seeds drew two stripes, %d one; want some of each", apart, shared)
	}
	// Whatever the point drew, its band spans both: its runs from other
	// start states take the draws that share least and most.
	b := parse(t, yaml)
	for seed := uint64(1); seed <= 4; seed++ {
		cfg := goAt(2)
		cfg.Costs, cfg.Policy.Seed = costs, seed
		cfg.Range = &model.Range{Lo: costs, Hi: costs}
		cfg.Dur, cfg.Warmup = 200*time.Microsecond, 50*time.Microsecond
		thr, lo, hi := banded(t, b, cfg)
		if lo, hi := lo*thr, hi*thr; hi < 1.9/30e-9 || lo > 1.5/30e-9 {
			t.Errorf("hashed, seed %d: band %.3g–%.3g ops/s; want from one stripe's speed to two's", seed, lo, hi)
		}
	}
	if apart, _ := throughputs(strings.Replace(yaml, ", hashed: true", "", 1)); apart != 8 {
		t.Errorf("each CPU's own: %d of 8 seeds at two CPUs' speed; want all", apart)
	}
}

// TestDurationToTheNearestNanosecond: a duration with a fraction of a
// nanosecond is rounded, not cut: "7.6ns" is a step of 8 ns (125 M orders
// a second on one CPU), not of 7 (143 M).
func TestDurationToTheNearestNanosecond(t *testing.T) {
	for _, c := range []struct {
		step string
		want float64
	}{
		{"7.6ns", 1e9 / 8},
		{"7.4ns", 1e9 / 7},
		{"0.0076us", 1e9 / 8},
		{"1.5ns", 1e9 / 2},
		{"2us", 1e9 / 2000},
	} {
		b := parse(t, `
steps:
  - {name: add, duration: `+c.step+`}`)
		cfg := fifo(1)
		cfg.Warmup, cfg.Dur = time.Microsecond, 100*time.Microsecond
		r := run(t, b, cfg)
		if math.Abs(r.Throughput-c.want)/c.want > 0.01 {
			t.Errorf("a step of %s: %.0f orders/s, want %.0f", c.step, r.Throughput, c.want)
		}
	}
}
