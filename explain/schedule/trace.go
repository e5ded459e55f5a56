package schedule

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"golang.org/x/exp/trace"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/results/analysis"
)

// FromTrace reads an execution trace and returns its schedule over span
// from the middle of its steps: a row per P, and a bar for each stretch a
// goroutine ran in a region (coffee marks each step with one named after
// its machine), Go code outside the steps as analysis.Other.
func FromTrace(r io.Reader, mode string, cpus int, span time.Duration) (analysis.Timeline, error) {
	if span <= 0 {
		return analysis.Timeline{}, fmt.Errorf("span %v: want a positive duration such as 20ms", span)
	}
	rd, err := trace.NewReader(r)
	if err != nil {
		return analysis.Timeline{}, fmt.Errorf("read the trace: %w", err)
	}
	tr := tracer{on: map[trace.GoID]running{}, regions: map[trace.GoID][]string{}}
	for {
		ev, err := rd.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return analysis.Timeline{}, fmt.Errorf("read the trace: %w", err)
		}
		tr.event(ev)
	}
	if tr.steps == 0 {
		return analysis.Timeline{}, errors.New("the trace holds no step: no region of coffee's machines (was it written by brewput --profile?)")
	}
	// The middle of the steps is in the measured window's steady state.
	from := max(tr.first+(tr.last-tr.first)/2-trace.Time(span/2), tr.first)
	t := analysis.Timeline{Mode: mode, CPUs: cpus, Source: "execution trace", Start: time.Duration(from - tr.origin), Span: span, Who: "goroutine"}
	to := from + trace.Time(span)
	// Goroutines are numbered 1, 2, … in the order they first ran a step,
	// as the runtime's IDs run to the thousands.
	number := map[trace.GoID]int{}
	for _, b := range tr.bars {
		if _, ok := number[b.g]; !ok && b.machine != analysis.Other {
			number[b.g] = len(number) + 1
		}
	}
	for _, b := range tr.bars {
		start, end := max(b.start, from), min(b.end, to)
		if end <= start {
			continue
		}
		t.Bars = append(t.Bars, analysis.Bar{CPU: int(b.p), Start: time.Duration(start - from), End: time.Duration(end - from), Machine: b.machine, Who: number[b.g]})
		// A P numbered beyond the point's CPUs (none should be) gets a row.
		t.CPUs = max(t.CPUs, int(b.p)+1)
	}
	analysis.SortBars(t.Bars)
	return t, nil
}

// ReadTrace is FromTrace of the trace file at path, whose File it sets.
func ReadTrace(path, mode string, cpus int, span time.Duration) (analysis.Timeline, error) {
	f, err := os.Open(path)
	if err != nil {
		return analysis.Timeline{}, err
	}
	defer f.Close()
	t, err := FromTrace(f, mode, cpus, span)
	if err != nil {
		return analysis.Timeline{}, fmt.Errorf("%s: %w", path, err)
	}
	t.File = path
	return t, nil
}

// tracer follows goroutines on and off their Ps and into and out of
// regions, and keeps what each P ran as bars.
type tracer struct {
	origin, first, last trace.Time
	seen                bool
	steps               int
	// on is the P each running goroutine runs on, since when; regions the
	// regions each goroutine is in, innermost last.
	on      map[trace.GoID]running
	regions map[trace.GoID][]string
	bars    []traceBar
}

type running struct {
	p     trace.ProcID
	since trace.Time
}

type traceBar struct {
	p          trace.ProcID
	g          trace.GoID
	start, end trace.Time
	machine    string
}

// cut ends what goroutine g ran up to t as a bar, and starts the next at t.
func (tr *tracer) cut(g trace.GoID, t trace.Time) {
	r, ok := tr.on[g]
	if !ok {
		return
	}
	if t > r.since && r.p != trace.NoProc {
		m := analysis.Other // what g ran: its innermost region, if any
		if rs := tr.regions[g]; len(rs) > 0 {
			m = rs[len(rs)-1]
		}
		tr.bars = append(tr.bars, traceBar{p: r.p, g: g, start: r.since, end: t, machine: m})
		if m != analysis.Other {
			tr.first = min(tr.first, r.since)
			tr.last = max(tr.last, t)
		}
	}
	r.since = t
	tr.on[g] = r
}

func (tr *tracer) event(ev trace.Event) {
	t := ev.Time()
	if !tr.seen {
		tr.origin, tr.first, tr.last, tr.seen = t, math.MaxInt64, 0, true
	}
	switch ev.Kind() {
	case trace.EventStateTransition:
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			return
		}
		g := st.Resource.Goroutine()
		from, to := st.Goroutine()
		if from == trace.GoRunning && to != trace.GoRunning {
			tr.cut(g, t)
			delete(tr.on, g)
		}
		if to == trace.GoRunning && from != trace.GoRunning {
			tr.on[g] = running{p: ev.Proc(), since: t}
		}
	case trace.EventRegionBegin:
		g := ev.Goroutine()
		tr.cut(g, t)
		tr.regions[g] = append(tr.regions[g], ev.Region().Type)
	case trace.EventRegionEnd:
		g := ev.Goroutine()
		rs := tr.regions[g]
		if len(rs) == 0 {
			return // began before the trace did
		}
		tr.cut(g, t)
		tr.steps++
		tr.regions[g] = rs[:len(rs)-1]
	}
}

// CheckTrace tells, before anything is simulated, whether ReadTrace can
// open the file at path.
func CheckTrace(path string) error {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("trace %s: %w", path, atomicfile.WithoutPath(err))
	case info.IsDir():
		return fmt.Errorf("trace %s is a folder; want an execution trace file, as --profile writes one (*.trace)", path)
	}
	return nil
}
