package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"golang.org/x/exp/trace"
)

// wakeups prints how the goroutines that blocked came back (-wakes), and
// how many blocks were a waker's, one it woke still waiting to run.
func wakeups(r io.Reader) error {
	type woken struct {
		at    trace.Time
		by    trace.ProcID
		waker trace.GoID
	}
	pending := map[trace.GoID]woken{}         // woken, not yet running
	wakerSince := map[trace.GoID]trace.Time{} // a waker's first wake since it last blocked
	started := map[trace.GoID]trace.Time{}
	var toRun, wakerOn, runs []time.Duration
	var toRunElsewhere []time.Duration // of toRun, those run on another P than their waker's
	sameP := 0
	// waiting is how many a goroutine woke are not yet running; a block
	// while one is, a relay: its P runs the woken one next.
	waiting := map[trace.GoID]int{}
	relays, blocks := 0, 0
	// How a P went on after a block: the block's time and whether it was
	// a relay, until the P runs a goroutine again; of the woken run on
	// another P, those their waker had woken another after (kicked from
	// runnext to the run queue).
	type blocked struct {
		at    trace.Time
		relay bool
	}
	lastBlock := map[trace.ProcID]blocked{}
	var gapRelay, gapOther []time.Duration
	nextWoken, nextOther := 0, 0
	wokeAfter := map[trace.GoID]trace.GoID{} // a woken one, and the one its waker woke next
	lastWoke := map[trace.GoID]trace.GoID{}  // a waker's last woken, still waiting
	kicked := 0
	var first, last trace.Time
	// How many goroutines were in each state, on average over the trace:
	// each goroutine's time in a state, from its first change on.
	since := map[trace.GoID]trace.Time{}
	inState := map[trace.GoState]time.Duration{}
	err := transitions(r, func(t0 trace.Time, ev trace.Event, _ trace.StateTransition, g trace.GoID, was, is trace.GoState) {
		first, last = t0, ev.Time()
		if t, ok := since[g]; ok {
			inState[was] += time.Duration(ev.Time() - t)
		}
		since[g] = ev.Time()
		switch {
		case was == trace.GoWaiting && is == trace.GoRunnable:
			pending[g] = woken{at: ev.Time(), by: ev.Proc(), waker: ev.Goroutine()}
			if w := ev.Goroutine(); w != trace.NoGoroutine {
				if prev, ok := lastWoke[w]; ok {
					if _, waits := pending[prev]; waits {
						wokeAfter[prev] = g
					}
				}
				lastWoke[w] = g
				waiting[w]++
				if _, ok := wakerSince[w]; !ok {
					wakerSince[w] = ev.Time()
				}
			}
		case was == trace.GoRunnable && is == trace.GoRunning:
			started[g] = ev.Time()
			if b, ok := lastBlock[ev.Proc()]; ok {
				if b.relay {
					gapRelay = append(gapRelay, time.Duration(ev.Time()-b.at))
				} else {
					gapOther = append(gapOther, time.Duration(ev.Time()-b.at))
					if _, ok := pending[g]; ok {
						nextWoken++
					} else {
						nextOther++
					}
				}
				delete(lastBlock, ev.Proc())
			}
			if w, ok := pending[g]; ok && ev.Proc() != w.by {
				if _, ok := wokeAfter[g]; ok {
					kicked++
				}
			}
			delete(wokeAfter, g)
			if w, ok := pending[g]; ok {
				toRun = append(toRun, time.Duration(ev.Time()-w.at))
				if ev.Proc() == w.by {
					sameP++
				} else {
					toRunElsewhere = append(toRunElsewhere, time.Duration(ev.Time()-w.at))
				}
				if w.waker != trace.NoGoroutine && waiting[w.waker] > 0 {
					waiting[w.waker]--
				}
				delete(pending, g)
			}
		case was == trace.GoRunning && is == trace.GoWaiting:
			blocks++
			if waiting[g] > 0 {
				relays++
			}
			lastBlock[ev.Proc()] = blocked{at: ev.Time(), relay: waiting[g] > 0}
			if t, ok := started[g]; ok {
				runs = append(runs, time.Duration(ev.Time()-t))
			}
			if t, ok := wakerSince[g]; ok {
				wakerOn = append(wakerOn, time.Duration(ev.Time()-t))
				delete(wakerSince, g)
			}
		}
	})
	if err != nil {
		return err
	}
	span := time.Duration(last - first)
	fmt.Printf("%d wakes in %v (%.0f a second), %d of them (%.0f %%) run on the P that woke them\n",
		len(toRun), span.Round(time.Microsecond), float64(len(toRun))/span.Seconds(), sameP, 100*float64(sameP)/float64(max(1, len(toRun))))
	fmt.Printf("from wake to running:             %s\n", quantiles(toRun))
	fmt.Printf("  of those on another P:          %s\n", quantiles(toRunElsewhere))
	fmt.Printf("a waker running on, to its block: %s\n", quantiles(wakerOn))
	fmt.Printf("running between blocks:           %s\n", quantiles(runs))
	fmt.Printf("%d blocks, %d of them (%.0f %%) by a goroutine one it woke was still waiting for\n",
		blocks, relays, 100*float64(relays)/float64(max(1, blocks)))
	fmt.Printf("from a block to its P's next run, a relay's:  %s\n", quantiles(gapRelay))
	fmt.Printf("  another block's:                             %s\n", quantiles(gapOther))
	fmt.Printf("  after another block the P ran %d woken, %d others\n", nextWoken, nextOther)
	fmt.Printf("of the %d woken run on another P, %d had been followed by another wake from their waker\n", len(toRunElsewhere), kicked)
	fmt.Printf("goroutines on average: %.1f running, %.1f runnable, %.1f waiting\n", float64(inState[trace.GoRunning])/float64(span),
		float64(inState[trace.GoRunnable])/float64(span), float64(inState[trace.GoWaiting])/float64(span))
	return nil
}

// quantiles is the 10th, 50th and 90th percentiles of ds and their mean.
func quantiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	slices.Sort(ds)
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	n := len(ds)
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Nanosecond) }
	return fmt.Sprintf("p10 %v, p50 %v, p90 %v, mean %v", r(ds[n/10]), r(ds[n/2]), r(ds[n*9/10]), r(sum/time.Duration(n)))
}
