package blueprint_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestShortHoldCaveat: a go-policy prediction of a shared mutex held a
// few tens of nanoseconds and busy most of the time, or held a tenth of
// it while the CPUs wait for its word most of the time they run, on more
// than one CPU, carries the caveat that real machines ran such locks far
// slower, in its JSON and its notes; the same lock on one CPU, under fifo,
// each customer's own, held for microseconds, or used seldom carries none.
func TestShortHoldCaveat(t *testing.T) {
	const brief = `
name: brief
unit: ops
resources: {mu: 1}
steps:
  - {name: outside, duration: 1ns}
  - {name: inside, duration: 25ns, holds: [mu]}`
	costs := sim.Costs{Switch: 58, Wake: 20 * time.Microsecond, MutexHandoff: 500, MutexSpin: 700, RuntimeLock: 11,
		Transfer: sim.Transfer{Socket: 30 * time.Nanosecond}}
	const empty = `
name: empty
unit: ops
resources: {mu: 1}
steps:
  - {name: lock, duration: 13ns}
  - {name: unlock, duration: 13ns, holds: [mu]}`
	for _, c := range []struct {
		name, yaml string
		cpus       int
		sched      string
		want       bool
		seldomHeld bool // held under a quarter of the time: its word's waits mark it
	}{
		{"brief and busy on 2 CPUs", brief, 2, "go", true, false},
		{"brief, seldom held, its word waited for on 8 CPUs", empty, 8, "go", true, true},
		{"brief and seldom used", strings.Replace(brief, "1ns", "5us", 1), 2, "go", false, true},
		{"on one CPU", brief, 1, "go", false, false},
		{"under fifo", brief, 2, "fifo", false, false},
		{"each customer's own", strings.Replace(brief, "{mu: 1}", "{mu: {kind: mutex, per: customer}}", 1), 2, "go", false, false},
		{"held for microseconds", strings.Replace(brief, "25ns", "5us", 1), 2, "go", false, false},
	} {
		p := simulateAt(t, c.yaml, c.cpus, c.sched, costs, time.Millisecond)
		if c.seldomHeld && (len(p.Shop.Machines) != 1 || p.Shop.Machines[0].BusyFrac >= 0.25) {
			t.Errorf("%s: machines %+v, want mu held under a quarter of the time", c.name, p.Shop.Machines)
		}
		got := len(p.Caveats) == 1 && p.Caveats[0].Kind == results.CaveatShortHold && p.Caveats[0].Resource == "mu"
		if got != c.want || !c.want && len(p.Caveats) > 0 {
			t.Errorf("%s: caveats %+v, want a short-hold one %v", c.name, p.Caveats, c.want)
			continue
		}
		if c.want && !strings.Contains(text.Notes(p), text.CaveatText(p.Caveats[0])) {
			t.Errorf("%s: notes %q lack the caveat %q", c.name, text.Notes(p), text.CaveatText(p.Caveats[0]))
		}
	}
}

// TestLockstepCaveat: two goroutines taking a global pool's lock 8 % of
// the time, under Go before 1.5 on 2 of a machine's 4 cores, where one of
// them, woken after exactly the same time each time, comes back just
// after the other took the lock, every time, and finishes nothing (under
// the rule that lets a core keep a line as long as it took to come): the
// point says so in a caveat and its notes.
func TestLockstepCaveat(t *testing.T) {
	b := parse(t, `
name: pool-global
unit: pairs
resources: {cache: 1}
steps:
  - {name: put, duration: 232ns}
  - {name: put-locked, duration: 20ns, holds: [cache]}
  - {name: get, duration: 232ns}
  - {name: get-locked, duration: 20ns, holds: [cache]}`)
	cfg := goAt(2)
	cfg.Costs = sim.Costs{Switch: 83, Wake: 34056, SpinWake: 23743, MutexHandoff: 293, ChanHandoff: 648, BufChanHandoff: 734,
		RunnextGrace: 87922, MutexSpin: 312, RuntimeLock: 15, AllCore: 0.88,
		Transfer: sim.Transfer{Sibling: 9 * time.Nanosecond, Socket: 40 * time.Nanosecond, Remote: 140 * time.Nanosecond, Keep: true}}
	cfg.Machine = sim.Machine{Sockets: 1, CoresPerSocket: 4, ThreadsPerCore: 1}
	cfg.Quirks = sim.Quirks{NoRunnext: true, NoSpin: true, AllSpin: true} // Go 1.0's
	cfg.Dur, cfg.Warmup = time.Millisecond, 250*time.Microsecond
	cfg.System, cfg.Mode = b, b.Name
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	i := slices.IndexFunc(p.Caveats, func(c results.Caveat) bool { return c.Kind == results.CaveatLockstep })
	if i < 0 || !strings.Contains(text.Notes(p), text.CaveatText(p.Caveats[i])) {
		t.Errorf("%.0f pairs/s, caveats %+v; want a lockstep one in the notes %q", p.Throughput, p.Caveats, text.Notes(p))
	}
}

// TestSharedLineCaveat: a go-policy prediction of a word every CPU adds
// to, or a read-write lock every CPU read-locks, whose line the CPUs wait
// for much of their time, carries the caveat that machines keep such a
// line at a core for several uses in a row, in its JSON and its
// notes; the same word on one CPU, under fifo, a copy on each CPU, or
// added to once in a long operation carries none.
func TestSharedLineCaveat(t *testing.T) {
	const counter = `
name: counter
unit: ops
resources: {n: {kind: word}}
steps:
  - {name: add, duration: 8ns, writes: [n]}`
	const readers = `
name: readers
unit: ops
resources: {rw: {kind: rwmutex}}
steps:
  - {name: read, duration: 10ns, shares: [rw]}`
	costs := sim.Costs{Switch: 58, Wake: 20 * time.Microsecond, MutexHandoff: 500, MutexSpin: 700, RuntimeLock: 11,
		Transfer: sim.Transfer{Socket: 40 * time.Nanosecond}}
	for _, c := range []struct {
		name, yaml, resource string
		cpus                 int
		sched                string
		want                 bool
	}{
		{"a counter on 4 CPUs", counter, "n", 4, "go", true},
		{"readers on 4 CPUs", readers, "rw", 4, "go", true},
		{"on one CPU", counter, "n", 1, "go", false},
		{"under fifo", counter, "n", 4, "fifo", false},
		{"a copy on each CPU", strings.Replace(counter, "{kind: word}", "{kind: word, per: cpu}", 1), "n", 4, "go", false},
		{"once in a long operation", strings.Replace(counter, "8ns", "5us", 1), "n", 4, "go", false},
	} {
		p := simulateAt(t, c.yaml, c.cpus, c.sched, costs, 200*time.Microsecond)
		i := slices.IndexFunc(p.Caveats, func(cv results.Caveat) bool { return cv.Kind == results.CaveatSharedLine })
		if got := i >= 0 && p.Caveats[i].Resource == c.resource; got != c.want {
			t.Errorf("%s: caveats %+v, want a shared-line one on %s %v", c.name, p.Caveats, c.resource, c.want)
			continue
		}
		if c.want && !strings.Contains(text.Notes(p), text.CaveatText(p.Caveats[i])) {
			t.Errorf("%s: notes %q lack the caveat %q", c.name, text.Notes(p), text.CaveatText(p.Caveats[i]))
		}
	}
}

// simulateAt is the point of the blueprint in yaml on cpus CPUs under
// sched with costs, over a window of dur after a quarter of it.
func simulateAt(t *testing.T, yaml string, cpus int, sched string, costs sim.Costs, dur time.Duration) results.Point {
	t.Helper()
	b := parse(t, yaml)
	cfg := goAt(cpus)
	cfg.Policy.Sched, cfg.Costs = sched, costs
	cfg.Dur, cfg.Warmup = dur, dur/4
	cfg.System, cfg.Mode = b, b.Name
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ps[0]
}
