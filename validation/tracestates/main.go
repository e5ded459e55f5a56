// Command tracestates is a one-off probe, for reading one trace by hand,
// not a check that is run again: it prints, from a Go execution trace,
// every stretch a goroutine ran in a window of the trace: when it started,
// how long it ran, and how it stopped (blocked on a mutex or a channel,
// preempted, yielded), with the coffee and sync frames of its stack. It is
// how the model's scheduling was held against the runtime's, goroutine by
// goroutine: for instance, where sysmon really preempts and what the
// others do meanwhile.
//
//	brewput run --modes finelocking --cpus 1 --par 10 --dur 1s --profile /tmp/prof
//	go run ./tracestates -from 300ms -to 420ms /tmp/prof/finelocking-1cpu.trace
//
// System calls inside a stretch (the step's clock reads) do not end it,
// unless the goroutine's P is taken from it meanwhile.
//
// With -wakes it prints instead, over the whole trace, how goroutines that
// blocked came back: how many were woken, how long each took from its wake
// to running and how many ran on the P that woke them (the waker's
// runnext, run once the waker blocked), how long the waker ran on before
// it blocked, and how long goroutines ran between blocks; how long a P
// took to run a goroutine again after one blocked, a relay (the blocked
// one had woken one still waiting) apart, and how many of the woken that
// ran on another P their waker had woken another after (put out of its
// runnext into its run queue, where an idle P steals without waiting):
//
//	go run ./tracestates -wakes testdata/manycore/mutex-4p.trace
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

func main() {
	from := flag.Duration("from", 0, "start of the window, from the trace's first event")
	to := flag.Duration("to", 100*time.Millisecond, "end of the window, from the trace's first event")
	wakes := flag.Bool("wakes", false, "print how woken goroutines came back, over the whole trace, instead")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: tracestates [-from D] [-to D] [-wakes] FILE.trace")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *to <= *from {
		flag.Usage()
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracestates:", err)
		os.Exit(1)
	}
	defer f.Close()
	run := func(r io.Reader) error { return dump(r, *from, *to) }
	if *wakes {
		run = wakeups
	}
	if err := run(f); err != nil {
		fmt.Fprintln(os.Stderr, "tracestates:", err)
		os.Exit(1)
	}
}

// transitions calls f with each goroutine's change of state in the trace
// r holds, in order, and the time of the trace's first event.
func transitions(r io.Reader, f func(t0 trace.Time, ev trace.Event, st trace.StateTransition, g trace.GoID, was, is trace.GoState)) error {
	tr, err := trace.NewReader(r)
	if err != nil {
		return err
	}
	var t0 trace.Time
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if t0 == 0 {
			t0 = ev.Time()
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		was, is := st.Goroutine()
		f(t0, ev, st, st.Resource.Goroutine(), was, is)
	}
}

// dump prints the stretches that ended between from and to.
func dump(r io.Reader, from, to time.Duration) error {
	started := map[trace.GoID]trace.Time{}
	inSyscall := map[trace.GoID]trace.Time{} // when a running goroutine entered its system call
	return transitions(r, func(t0 trace.Time, ev trace.Event, st trace.StateTransition, g trace.GoID, was, is trace.GoState) {
		end, how := ev.Time(), fmt.Sprintf("%v (%s)", is, st.Reason)
		switch {
		case is == trace.GoRunning && was != trace.GoSyscall:
			started[g] = ev.Time()
			return
		case was == trace.GoRunning && is == trace.GoSyscall:
			inSyscall[g] = ev.Time()
			return
		case was == trace.GoSyscall && is != trace.GoRunning:
			// Its P was taken while it sat in the system call: the
			// stretch ended when the call began.
			end, how = inSyscall[g], fmt.Sprintf("%v after a system call that lost its P", is)
		case was != trace.GoRunning:
			return
		}
		at := time.Duration(end - t0)
		if at < from || at > to {
			return
		}
		var frames []string
		for fr := range st.Stack.Frames() {
			if strings.Contains(fr.Func, "coffee.") || strings.Contains(fr.Func, "sync.") {
				frames = append(frames, strings.TrimPrefix(fr.Func, "github.com/brewput/brewput/"))
			}
			if len(frames) == 3 {
				break
			}
		}
		ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		fmt.Printf("%9.3f ms  g%-4d ran %7.3f ms, then %s %v\n",
			ms(time.Duration(started[g]-t0)), g, ms(time.Duration(end-started[g])), how, frames)
	})
}
