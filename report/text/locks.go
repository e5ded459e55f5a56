package text

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// WriteLocks writes the lock groups of each benchmark watched with bench
// --locks, in its first run on the most CPUs measured, a line each.
func WriteLocks(w io.Writer, points []results.Point) error {
	t := LockTable(points, format.Width(w))
	if t == "" {
		return nil
	}
	_, err := io.WriteString(w, "\n"+t)
	return err
}

// LockTable is WriteLocks' table at width, the terminal's and the
// report page's; "" where no benchmark was watched.
func LockTable(points []results.Point, width int) string {
	order, runs := collect.GroupBy(points, func(p results.Point) (string, bool) { return p.Mode, p.Bench != nil && p.Bench.Watched })
	if len(order) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(format.Wrap("The locks each benchmark took while its timer ran, on the most CPUs measured (watched with --locks; "+
		"a site's locks, and the sites that take the same lock, are one group):", width, "") + "\n")
	for _, mode := range order {
		p := slices.MaxFunc(runs[mode], func(a, b results.Point) int { return cmp.Compare(a.CPUs, b.CPUs) }) // the first of the most
		head := fmt.Sprintf("  %s on %s:", mode, format.Count(p.CPUs, "CPU"))
		groups := lockGroups(p)
		if len(groups) == 0 {
			b.WriteString(head + " no lock taken\n")
			continue
		}
		b.WriteString(head + "\n")
		for _, g := range groups {
			b.WriteString("    " + format.Wrap(g.line(p), width-4, "      ") + "\n")
		}
	}
	return b.String()
}

// lockGroup is what one group of a benchmark's locks did in a run.
type lockGroup struct {
	name       string
	locks      int
	about      bool // locks is an estimate
	via        string
	uses       int64
	held, wait float64 // seconds
	// holds after a wait and free, in ns, and how many were timed
	afterWait, free float64
	afterWaitN      int64
	rw              bool  // an RWMutex's, watched: its readers told apart
	reads           int64 // of uses
}

// lockGroups are p's lock groups, the one held and waited for longest first.
func lockGroups(p results.Point) []*lockGroup {
	var groups []*lockGroup
	for _, m := range p.Machines() {
		name := results.MeterGroup(m.Name)
		i := slices.IndexFunc(groups, func(g *lockGroup) bool { return g.name == name })
		if i < 0 {
			i, groups = len(groups), append(groups, &lockGroup{name: name})
		}
		g := groups[i]
		g.locks++
		g.rw = g.rw || m.RWMutex() && m.Goroutines > 0
		g.reads += m.Reads
		g.about = g.about || m.Estimated
		g.via = m.Via
		g.uses += m.Uses
		g.held += m.BusyFrac * p.Dur.Seconds()
		g.wait += m.MeanWaitMs / 1e3 * float64(m.Uses)
		if m.AfterWaitTimed > 0 {
			g.afterWait, g.free, g.afterWaitN = m.AfterWaitHoldNs, m.FreeHoldNs, m.AfterWaitTimed
		}
	}
	slices.SortStableFunc(groups, func(x, y *lockGroup) int {
		return cmp.Compare(y.held+y.wait, x.held+x.wait) // larger first
	})
	return groups
}

// line says what g did in p's run: its locks, uses, holds and waits.
func (g *lockGroup) line(p results.Point) string {
	count := format.Count(g.locks, "lock")
	if g.about {
		count = "about " + count
	}
	line := fmt.Sprintf("%s: %s, %.3g an op", g.name, count, float64(g.uses)/float64(max(p.Ops, 1)))
	switch {
	case g.rw && g.reads == 0:
		// As why and predict take it: one at a time, as a mutex.
		line += ", an RWMutex never taken to read: held one at a time"
	case g.rw:
		line += fmt.Sprintf(", an RWMutex taken to read in %s of its uses", format.Percent(float64(g.reads)/float64(max(g.uses, 1)), 0))
	}
	if g.held > 0 {
		per, timed := "use", g.uses
		if g.reads > 0 { // a reader's hold is not timed: the time held is the writers'
			per, timed = "write", g.uses-g.reads
		}
		// Sampled, the time held can pass the time there was: held all
		// of it, as far as the estimate tells.
		share := "all the time"
		if f := g.held / float64(g.locks) / p.Dur.Seconds(); f < 0.95 {
			share = format.Percent(f, 1) + " of the time"
			if g.locks > 1 {
				share += " each" // each lock: not each goroutine
			}
		}
		line += fmt.Sprintf(", held %s a %s (%s)", format.Wait(g.held/float64(max(timed, 1))*1e3), per, share)
	}
	if g.wait > 0 {
		line += fmt.Sprintf(", waited %s a use", format.Wait(g.wait/float64(g.uses)*1e3))
	}
	if g.afterWaitN > 0 && g.free > 0 {
		// Taken after a wait, the lock and its data came from another
		// goroutine's hold.
		line += fmt.Sprintf(", held %s after a wait against %s free (%s timed after a wait)",
			format.Wait(g.afterWait/1e6), format.Wait(g.free/1e6), format.Count(int(g.afterWaitN), "hold"))
	}
	if g.via != "" {
		line += ", through " + g.via
	}
	return line
}

// NoLocks says a benchmark took no lock (or, rare, none often enough to
// queue its workers) while its timer ran, or ran too few to tell.
func NoLocks(p results.Point, rare []string, sampleEvery int) string {
	ran := fmt.Sprintf("(%s on %s)", format.Rate(p.Throughput, p.Unit), format.Count(p.CPUs, "CPU"))
	var groups []string // the channels' groups, each once
	uses := map[string]int64{}
	for _, m := range p.Machines() {
		if g := results.MeterGroup(m.Name); results.IsChan(m.Kind) {
			if _, ok := uses[g]; !ok {
				groups = append(groups, g)
			}
			uses[g] += m.Uses
		}
	}
	chans := collect.Mapped(groups, func(g string) string {
		return fmt.Sprintf("%s, %s an op", g, format.Sig(float64(uses[g])/float64(max(p.Ops, 1)), 2))
	})
	var s string
	switch {
	case len(rare) > 0:
		s = fmt.Sprintf("%s took no lock often enough to queue its workers while its timer ran %s: no lock watched limits it (sync.Mutex, RWMutex, sync.Map's locks and channels are; atomic words are not); it took %s",
			p.Bench.Name, ran, strings.Join(rare, "; "))
	case p.Ops < int64(2*sampleEvery-1):
		return fmt.Sprintf("%s: watching saw no lock taken in its %s (it samples about one lock in %d): run it longer (-benchtime) to know",
			p.Bench.Name, format.Count(int(p.Ops), "operation"), sampleEvery)
	case len(chans) > 0:
		s = fmt.Sprintf("%s took no sync.Mutex, RWMutex or sync.Map lock while its timer ran %s, and used channels (%s): no stretch lengthens a channel's lock, so why cannot tell whether one limits it (predict reads one its goroutines share as one lock); nothing else watched limits it (atomic words are not watched)",
			p.Bench.Name, ran, strings.Join(chans, "; "))
	default:
		s = fmt.Sprintf("%s took no lock and used no channel while its timer ran %s: none limits it (sync.Mutex, RWMutex, sync.Map's locks and channels are watched; atomic words are not)",
			p.Bench.Name, ran)
	}
	if len(p.Waits) > 0 {
		w := p.Waits[0]
		s += fmt.Sprintf("; Go's mutex profile saw its goroutines wait %s an operation for the runtime's own locks, the most for a %s at %s",
			format.Wait(perOpMs(p.Waits)), w.Kind, w.Site)
	}
	return s
}

// perOpMs is waits' time an operation, all together.
func perOpMs(waits []results.Wait) float64 {
	total := 0.0
	for _, w := range waits {
		total += w.PerOpMs
	}
	return total
}
