package studyjob

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// lockGroup is one group of a variant's metered locks (meter.Group), as
// its model holds it: Locks mutexes, each use taking one at random,
// UsesPerOp times an operation, for HeldPerUse each.
type lockGroup struct {
	Name  string
	Locks int
	// LocksAbout says Locks is an estimate (a watched site's sketch).
	LocksAbout bool
	UsesPerOp  float64
	HeldPerUse time.Duration
	heldPerOp  float64 // seconds, summed over the group's locks
	waitPerOp  float64 // seconds
	// Private is a group whose every lock one goroutine alone took (a
	// lock per goroutine, as the watcher tells from which goroutines took
	// each): modelled as a copy for each customer, never contended.
	Private bool
	// Takers is how many goroutines took each lock (0: not known), of
	// Goroutines that took the group's.
	Takers     float64
	Goroutines int
	// Unused is how many of the group's meters no operation took in the
	// window; PerWorker says Takers was read from that (see perWorker).
	Unused    int
	PerWorker bool
	// ReadsPerOp is, of UsesPerOp, an RWMutex's readers' uses; RW says
	// the group is an RWMutex's.
	ReadsPerOp float64
	RW         bool
	// ReadPerUse is a reader's hold as the model takes it (readers' are
	// not timed): a writer's, or what the operation's time leaves; ReadOn,
	// where not 0, the CPU count that was read on, where not the model's.
	ReadPerUse time.Duration
	ReadOn     int
}

// negligible is the share of an operation's time below which a lock group
// held and waited for makes no part of a model: sync.Pool's pinSlow,
// taken a few times a run, would otherwise stand for a design's lock.
const negligible = 0.001

// private says whether a group's locks are each one goroutine's: several
// goroutines took them, about one each, in a run of workers goroutines
// (0: one a CPU). With one worker, a lock each is no design: a second
// goroutine seen is the benchmark's setup (concurrent-map's Sets before
// b.RunParallel on 1 CPU: goroutines 2, takers 1.06), and the worker
// takes every lock there is.
func private(takers float64, goroutines, workers int) bool {
	return takers > 0 && takers < 1.5 && goroutines >= 2 && workers != 1
}

// perWorker says a group's meters, which do not say who took them (a
// study's), show a lock per worker: of more locks than it has workers, the
// window took about one for each of them, at least one and fewer than two,
// and none was waited for (less than negligible of an operation's time,
// opTime, in seconds). Locks chosen by key or at random would be taken
// all, or in no such number; one a worker takes as its own, from a
// sync.Pool or by its index, are taken one for each (validation/truth's
// study: 2 of 16 on 2 CPUs, 16 of 16 on 16, each by one goroutine), and
// now and then one more, where the pool made a worker another (3 of 16 on
// 2 CPUs in one of three runs on the 16-vCPU machine's later lending).
func perWorker(g lockGroup, workers int, opTime float64) bool {
	return workers >= 2 && g.Locks >= workers && g.Locks < 2*workers && g.Unused > 0 && g.waitPerOp < negligible*opTime
}

// variantModel is what a variant's model is made of, read from the point
// From: an operation's time Outside the metered locks (less its holds and
// waits), each lock group it holds, and the meters it has no structure
// for (Unmodelled: channels, counted as work outside).
type variantModel struct {
	Variant string
	Unit    string // the throughput's, "ops/s"
	From    results.Point
	Outside time.Duration
	// OutsideOn, where not 0, is the CPU count Outside was read on, where
	// not From's.
	OutsideOn  int
	Locks      []lockGroup
	Unmodelled []string
	// Rounding is the model's time an operation over the measured one:
	// a blueprint's whole nanoseconds make a 19.46 ns operation 19 ns.
	Rounding float64
	// Negligible names the lock groups left out, held and waited for
	// less than negligible of an operation's time.
	Negligible []string
}

// modelOf reads variant's model from p, a closed-loop point of it, its
// costs what p's CPU count made of them.
func modelOf(p results.Point) (variantModel, error) {
	m := variantModel{Variant: p.Mode, Unit: p.Unit, From: p}
	switch {
	case p.Ops <= 0 || !(p.Throughput > 0):
		return m, fmt.Errorf("%s on %d CPUs: no operation completed in its window; nothing to model", p.Mode, p.CPUs)
	case p.Rate > 0:
		return m, fmt.Errorf("%s on %d CPUs: an open loop (%v calls/s); predict models the closed loop (measure without --rate)", p.Mode, p.CPUs, p.Rate)
	}
	ops := float64(p.Ops)
	window := ops / p.Throughput // a little past its nominal Dur
	perOp := perOpTime(p)
	for _, mc := range p.Machines() {
		if results.IsChan(mc.Kind) {
			// A channel's waits are a pipeline's rhythm: work outside.
			if !slices.Contains(m.Unmodelled, results.MeterLabel(mc)) {
				m.Unmodelled = append(m.Unmodelled, results.MeterLabel(mc))
			}
			continue
		}
		name := meter.Group(mc.Name)
		i := slices.IndexFunc(m.Locks, func(g lockGroup) bool { return g.Name == name })
		if i < 0 {
			m.Locks = append(m.Locks, lockGroup{Name: name})
			i = len(m.Locks) - 1
		}
		g := &m.Locks[i]
		if mc.Uses == 0 {
			// Made but not taken in the window: not a lock of the design
			// as measured.
			g.Unused++
			continue
		}
		g.Locks++
		g.LocksAbout = g.LocksAbout || mc.Estimated
		g.UsesPerOp += float64(mc.Uses) / ops
		g.ReadsPerOp += float64(mc.Reads) / ops
		g.RW = g.RW || mc.Kind == meter.KindRWMutex
		g.Takers, g.Goroutines = mc.Takers, mc.Goroutines
		// In seconds: whole nanoseconds would lose shards' short holds.
		g.heldPerOp += mc.BusyFrac * window / ops
		wait := mc.MeanWaitMs / 1e3 * float64(mc.Uses) / ops
		g.waitPerOp += wait
		perOp -= wait
	}
	m.Locks = slices.DeleteFunc(m.Locks, func(g lockGroup) bool {
		if g.UsesPerOp > 0 && g.heldPerOp+g.waitPerOp < negligible*perOpTime(p) {
			// Its time goes back to the work outside.
			perOp += g.waitPerOp
			m.Negligible = append(m.Negligible, g.Name)
			return true
		}
		return g.UsesPerOp == 0
	})
	for i := range m.Locks {
		g := &m.Locks[i]
		if g.Takers == 0 && perWorker(*g, p.Par, perOpTime(p)) {
			g.Takers, g.Goroutines, g.PerWorker = 1, p.Par, true
		}
		g.Private = private(g.Takers, g.Goroutines, p.Par)
		writes := g.UsesPerOp
		if g.rwShares() {
			// An RWMutex's writers' holds, the only ones timed.
			writes -= g.ReadsPerOp
		}
		if writes > 0 {
			g.HeldPerUse = time.Duration(math.Round(g.heldPerOp / writes * float64(time.Second)))
		}
	}
	// A reader's hold is not timed: taken as long as a writer's, where
	// the operation's time leaves room for it.
	rest := perOp
	for _, g := range m.Locks {
		if !g.rwShares() {
			rest -= heldPerOp(uses(g)).Seconds()
		} else {
			rest -= g.heldPerOp
		}
	}
	for i := range m.Locks {
		if g := &m.Locks[i]; g.rwShares() {
			g.ReadPerUse = min(g.HeldPerUse, time.Duration(math.Round(max(0, rest)/g.ReadsPerOp*float64(time.Second))))
			rest -= g.ReadsPerOp * g.ReadPerUse.Seconds()
		}
	}
	// A blueprint's durations are whole nanoseconds: the work outside is
	// what the rounded holds leave, so that the model reproduces p.
	steps := time.Duration(0)
	for _, g := range m.Locks {
		if g.rwShares() {
			w, r := g.rwSteps()
			steps += w + r
			continue
		}
		steps += heldPerOp(uses(g))
	}
	// Rounded down, so that the model is at most a nanosecond fast, which
	// its band's low edge then spans (widenForRounding) without passing
	// the bound its own durations set.
	m.Outside = max(0, time.Duration(math.Floor(perOp*float64(time.Second)))-steps)
	if exact := perOp * float64(time.Second); exact > 0 {
		m.Rounding = float64(m.Outside+steps) / exact
	}
	if m.Outside <= 0 && len(m.Locks) == 0 {
		return m, fmt.Errorf("%s on %d CPUs: used no CPU time; nothing to model", p.Mode, p.CPUs)
	}
	return m, nil
}

// perOpTime is, in seconds, a worker's time per operation of p: its share
// of the window with no more workers than CPUs (so that the model
// reproduces p), else the CPU time used per operation.
func perOpTime(p results.Point) float64 {
	switch {
	case p.Par > 0 && p.Par <= p.CPUs:
		return float64(p.Par) / p.Throughput
	case p.CPUUsed > 0:
		return p.CPUUsed / p.Throughput
	}
	return float64(p.CPUs) / p.Throughput
}

// yaml writes the model as a blueprint: a step of the work outside the
// locks, then the holds of each lock group (uses), with the default load
// of a worker per CPU.
func (m variantModel) yaml() string {
	var b strings.Builder
	q := strconv.Quote // a JSON string is a YAML flow scalar
	unit, _ := strings.CutSuffix(m.Unit, "/s")
	fmt.Fprintf(&b, "name: %s\nunit: %s\n", q(m.Variant), q(unit))
	fmt.Fprintf(&b, "description: %s\n", q(fmt.Sprintf("%s as measured on %d CPU(s): %s", m.Variant, m.From.CPUs, m.describe())))
	if len(m.Locks) > 0 {
		b.WriteString("resources:\n")
		for _, g := range m.Locks {
			switch {
			case g.Private:
				fmt.Fprintf(&b, "  %s: {kind: mutex, per: customer}\n", q(g.Name))
			case g.rwShares() && g.Locks > 1:
				fmt.Fprintf(&b, "  %s: {kind: rwmutex, locks: %d}\n", q(g.Name), g.Locks)
			case g.rwShares():
				fmt.Fprintf(&b, "  %s: {kind: rwmutex}\n", q(g.Name))
			case g.Locks > 1:
				fmt.Fprintf(&b, "  %s: {locks: %d}\n", q(g.Name), g.Locks)
			default:
				fmt.Fprintf(&b, "  %s: 1\n", q(g.Name))
			}
		}
	}
	outside := "outside"
	for slices.ContainsFunc(m.Locks, func(g lockGroup) bool { return g.Name == outside }) {
		outside += "-work"
	}
	b.WriteString("steps:\n")
	fmt.Fprintf(&b, "  - {name: %s, duration: %s}\n", q(outside), m.Outside)
	for _, g := range m.Locks {
		if g.rwShares() {
			// Writers hold it and readers share it, each for their time an
			// operation (as uses does where their count is not whole).
			w, r := g.rwSteps()
			fmt.Fprintf(&b, "  - {name: %s, duration: %s, holds: [%s]}\n", q(g.Name+" write"), w, q(g.Name))
			if r > 0 {
				fmt.Fprintf(&b, "  - {name: %s, duration: %s, shares: [%s]}\n", q(g.Name+" read"), r, q(g.Name))
			}
			continue
		}
		n, d, every := uses(g)
		for range n {
			if every > 1 {
				fmt.Fprintf(&b, "  - {name: %s, duration: %s, holds: [%s], every: %d}\n", q(g.Name), d, q(g.Name), every)
				continue
			}
			fmt.Fprintf(&b, "  - {name: %s, duration: %s, holds: [%s]}\n", q(g.Name), d, q(g.Name))
		}
	}
	return b.String()
}

// rwShares says whether g is modelled as RWMutexes, its readers sharing
// each (one, or a sharded design's many, each use taking one at random):
// locks taken by readers and writers, not each goroutine's own.
func (g lockGroup) rwShares() bool {
	return g.RW && !g.Private && g.ReadsPerOp > 0 && g.UsesPerOp-g.ReadsPerOp > 0
}

// rwSteps is an RWMutex group's time held by writers and shared by
// readers, an operation.
func (g lockGroup) rwSteps() (write, read time.Duration) {
	writes := g.UsesPerOp - g.ReadsPerOp
	return time.Duration(math.Round(writes * float64(g.HeldPerUse))), time.Duration(math.Round(g.ReadsPerOp * float64(g.ReadPerUse)))
}

// uses is how many holds of g an operation's model has, how long each, and
// on one operation in how many (every; 1: on each): its uses where a
// whole number (to 5 %); where it is taken less than once an operation,
// one hold on one operation in as many as there are to a use, of their
// time held (sync.Pool's pinSlow, taken once in thousands of operations:
// its time spread over every operation would put each on the lock, and
// 16 CPUs on it); else one hold of its time an operation. Each keeps the
// structural bound.
func uses(g lockGroup) (n int, d time.Duration, every int) {
	if n := math.Round(g.UsesPerOp); n >= 1 && n <= 16 && math.Abs(g.UsesPerOp-n) <= 0.05*n {
		return int(n), g.HeldPerUse, 1
	}
	if g.UsesPerOp > 0 && g.UsesPerOp < 1 {
		if every := int(math.Round(1 / g.UsesPerOp)); every >= 2 {
			return 1, time.Duration(math.Round(g.heldPerOp * float64(every) * float64(time.Second))), every
		}
	}
	return 1, time.Duration(math.Round(g.heldPerOp * float64(time.Second))), 1
}

// heldPerOp is the time an operation holds for n holds of d on one operation
// in every.
func heldPerOp(n int, d time.Duration, every int) time.Duration {
	return time.Duration(n) * d / time.Duration(every)
}

// describe says what the model is made of, in a line.
func (m variantModel) describe() string {
	outside := fmt.Sprintf("%s of work outside the measured locks", format.Wait(float64(m.Outside)/1e6))
	if m.OutsideOn > 0 {
		outside += fmt.Sprintf(" (read on %s, where nothing contends)", format.Count(m.OutsideOn, "CPU"))
	}
	parts := []string{outside}
	for _, g := range m.Locks {
		what := "mutex " + g.Name
		switch {
		case g.Private && g.PerWorker:
			what = fmt.Sprintf("a mutex of each goroutine's own (%s: %d of its %d taken by %d workers, about one each, none waited for: never contended)",
				g.Name, g.Locks, g.Locks+g.Unused, g.Goroutines)
		case g.Private:
			what = fmt.Sprintf("a mutex of each goroutine's own (%s, each taken by one goroutine: never contended)", g.Name)
		case g.rwShares():
			what := "RWMutex " + g.Name
			if g.Locks > 1 {
				what = fmt.Sprintf("one of %d RWMutexes %s", g.Locks, g.Name)
				if g.LocksAbout {
					what = fmt.Sprintf("one of about %d RWMutexes %s", g.Locks, g.Name)
				}
			}
			untimed := "a reader's hold is not timed: taken as a writer's, or what the operation's time leaves"
			if g.ReadOn > 0 {
				untimed += fmt.Sprintf(" on %s, where nothing contends", format.Count(g.ReadOn, "CPU"))
			}
			parts = append(parts, fmt.Sprintf("%s held %s by a writer %s and shared %s by a reader %s (%s)",
				what, format.Wait(float64(g.HeldPerUse)/1e6), timesPerOp(g.UsesPerOp-g.ReadsPerOp), format.Wait(float64(g.ReadPerUse)/1e6), timesPerOp(g.ReadsPerOp), untimed))
			continue
		case g.Locks > 1:
			what = fmt.Sprintf("one of %d %s locks", g.Locks, g.Name)
			if g.LocksAbout {
				what = fmt.Sprintf("one of about %d %s locks", g.Locks, g.Name)
			}
		}
		if g.Takers > 0 && !g.Private {
			what += fmt.Sprintf(" (taken by %s)", format.Count(g.Goroutines, "goroutine"))
		}
		parts = append(parts, fmt.Sprintf("%s held %s %s", what, format.Wait(float64(g.HeldPerUse)/1e6), timesPerOp(g.UsesPerOp)))
	}
	if len(m.Locks) == 0 {
		parts[0] = fmt.Sprintf("%s of work and no lock, which scales with the CPUs (what it waits for without a lock, channels, atomics or memory, is not in the model)",
			format.Wait(float64(m.Outside)/1e6))
	}
	if len(m.Unmodelled) > 0 {
		parts = append(parts, "the time in "+strings.Join(m.Unmodelled, ", ")+" counted as work outside")
	}
	if len(m.Negligible) > 0 {
		parts = append(parts, fmt.Sprintf("%s left out (held and waited for under %s of an operation's time)",
			strings.Join(m.Negligible, ", "), format.Percent(negligible, 1)))
	}
	return strings.Join(parts, ", then ")
}

// timesPerOp says how often an operation does something.
func timesPerOp(n float64) string {
	if math.Abs(n-1) < 0.005 {
		return "once an operation"
	}
	return fmt.Sprintf("%.3g times an operation", n)
}

// blueprintOf is m's blueprint, parsed.
func (m variantModel) blueprint() (*blueprint.Blueprint, error) {
	bp, err := blueprint.Parse(m.Variant+".yaml", []byte(m.yaml()))
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: the model made of its meters does not parse", m.Variant), err)
	}
	return bp, nil
}
