package aggregate

import (
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brewput/brewput/lab"
)

// Type is the type of an event; the grouping works on any value, the
// lab's producers make the first types: A, B and C.
type Type uint8

const (
	A Type = iota
	B
	C
	types = 3
)

// String names the type: "a", "b", "c", or "type(N)" for others.
func (t Type) String() string {
	if t < types {
		return string(rune('a' + t))
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// Call is one handle call: a run of Count consecutive events of one Type.
type Call struct {
	Type  Type
	Count int
}

// Grouper turns events, one Add at a time, into runs of one type, each
// handed to its handler once an event of another type ends it (and
// starts the next, where the seed's grouper handled it alone: a a a a b b
// b gave (a,4), (b,1), (b,2)) or Flush is called. It belongs to the one
// consumer: not safe for concurrent use.
type Grouper struct {
	handle func(t Type, count int)
	cur    Type
	n      int
}

// NewGrouper returns a Grouper that hands each run to handle.
func NewGrouper(handle func(t Type, count int)) *Grouper {
	return &Grouper{handle: handle}
}

// Add counts one event of type t into the current run, after handing that
// run out if it is of another type.
func (g *Grouper) Add(t Type) {
	if g.n > 0 && t == g.cur {
		g.n++
		return
	}
	g.Flush()
	g.cur, g.n = t, 1
}

// Flush hands the current run, if any, to the handler; the next Add starts
// a new run.
func (g *Grouper) Flush() {
	if g.n > 0 {
		n := g.n
		g.n = 0 // before the call, so that a handler that panics leaves no run behind to hand out twice
		g.handle(g.cur, n)
	}
}

// Pending returns the current run, not yet handed out (count 0: none).
func (g *Grouper) Pending() Call {
	if g.n == 0 {
		return Call{}
	}
	return Call{Type: g.cur, Count: g.n}
}

// Group returns the calls a Grouper makes of events: one per maximal run
// of one type, the last included.
func Group(events []Type) []Call {
	runs := []Call{}
	g := NewGrouper(func(t Type, n int) { runs = append(runs, Call{Type: t, Count: n}) })
	for _, t := range events {
		g.Add(t)
	}
	g.Flush()
	return runs
}

// Event is what a producer puts on the channel.
type Event struct {
	Type Type // by which the consumer groups events
	// born is, for an event in the lab's latency sample, when it was made,
	// in ns since the run's start (never 0); 0 for the others.
	born int64
}

// Consume receives events from ch until it is closed and calls handle
// once for each run of consecutive events of one type: a a a a b b b
// gives handle(a, 4) and handle(b, 3), however the events arrive. A run's
// events wait for its end (a service whose events pause would add a
// flush timer), the last run's for ch to close.
func Consume(ch <-chan Event, handle func(t Type, count int)) {
	(&consumer{handle: handle}).consume(ch, true)
}

// ConsumeEach calls handle(type, 1) for each event of ch, until it is
// closed: what Consume is measured against.
func ConsumeEach(ch <-chan Event, handle func(t Type, count int)) {
	(&consumer{handle: handle}).consume(ch, false)
}

// consumer is the one goroutine that reads the channel: it calls handle,
// counts what it got, and times the sampled events from base to the end
// of their call, into latency if not nil.
type consumer struct {
	handle  func(t Type, count int)
	base    time.Time
	latency *hdrhistogram.Histogram
	pending []int64 // births of the sampled events not yet handled

	events     int64 // events received
	calls      int64 // handle calls
	streamRuns int64 // maximal runs of one type in the order received
	last       Type  // type of the last event received
}

// consume is Consume's loop, grouped, or ConsumeEach's. A grouped
// event's sample joins the pending ones after Add, which may hand out the
// run before it, and with it the samples before it.
func (c *consumer) consume(ch <-chan Event, grouped bool) {
	g := NewGrouper(c.handleRun)
	for e := range ch {
		c.see(e)
		if grouped {
			g.Add(e.Type)
		}
		if e.born != 0 {
			c.pending = append(c.pending, e.born)
		}
		if !grouped {
			c.handleRun(e.Type, 1)
		}
	}
	g.Flush()
}

// see counts e and the maximal runs of the stream as received: how many
// events per call the best grouping of this very stream would reach.
func (c *consumer) see(e Event) {
	if c.events == 0 || e.Type != c.last {
		c.streamRuns++
		c.last = e.Type
	}
	c.events++
}

// handleRun calls handle and then records the latency of the sampled
// events it handled.
func (c *consumer) handleRun(t Type, n int) {
	c.handle(t, n)
	c.calls++
	if len(c.pending) == 0 {
		return
	}
	if c.latency != nil {
		now := int64(time.Since(c.base))
		for _, born := range c.pending {
			lab.Record(c.latency, now-born)
		}
	}
	c.pending = c.pending[:0]
}
