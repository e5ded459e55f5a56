package aggregate

import (
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brewput/brewput/lab"
)

// Type is the type of an event. The lab's producers make the three types
// A, B and C; the grouping works on any value.
type Type uint8

// The lab's event types.
const (
	A Type = iota
	B
	C
)

// types is how many event types the lab's producers make.
const types = 3

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
// handed to its handler whole once an event of another type ends it or
// Flush is called: the event that ends a run starts the next, where the
// seed's grouper handled it alone (a a a a b b b gave (a,4), (b,1),
// (b,2)). It belongs to the one consumer: not safe for concurrent use.
type Grouper struct {
	handle func(t Type, count int)
	cur    Type
	n      int
}

// NewGrouper returns a Grouper that hands each run to handle.
func NewGrouper(handle func(t Type, count int)) *Grouper {
	return &Grouper{handle: handle}
}

// Add counts one event of type t: into the current run if it is of type t,
// otherwise after handing the current run to the handler.
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

// Pending returns the current run, not yet handed out: its type and count
// (0 when there is none).
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
	// Type is the event's type, by which the consumer groups events.
	Type Type
	// born is, for an event in the lab's latency sample, when it was made,
	// in ns since the run's start (never 0); 0 for the others.
	born int64
}

// Consume receives events from ch until it is closed and calls handle
// once for each run of consecutive events of one type: a a a a b b b
// gives handle(a, 4) and handle(b, 3), however the events arrive. A run
// is handed out when an event of another type arrives, the last when ch
// is closed; never split, its events wait in the consumer for its end (a
// service whose events of one type may pause for long would add a flush
// timer).
func Consume(ch <-chan Event, handle func(t Type, count int)) {
	c := consumer{handle: handle}
	c.grouped(ch)
}

// ConsumeEach calls handle(type, 1) for each event of ch, until it is
// closed: what Consume is measured against.
func ConsumeEach(ch <-chan Event, handle func(t Type, count int)) {
	c := consumer{handle: handle}
	c.each(ch)
}

// consumer is the one goroutine that reads the channel: it calls handle,
// counts what it received, and times the sampled events to the end of the
// call that took them.
type consumer struct {
	handle func(t Type, count int)

	// base is the time the sampled events' births count from; latency, if
	// not nil, receives their latencies in ns.
	base    time.Time
	latency *hdrhistogram.Histogram
	pending []int64 // births of the sampled events not yet handled

	events     int64 // events received
	calls      int64 // handle calls
	streamRuns int64 // maximal runs of one type in the order received
	last       Type  // type of the last event received
}

// grouped is Consume's loop.
func (c *consumer) grouped(ch <-chan Event) {
	g := NewGrouper(c.handleRun)
	for e := range ch {
		c.add(g, e)
	}
	g.Flush()
}

// each is ConsumeEach's loop.
func (c *consumer) each(ch <-chan Event) {
	for e := range ch {
		c.see(e)
		if e.born != 0 {
			c.pending = append(c.pending, e.born)
		}
		c.handleRun(e.Type, 1)
	}
}

// add gives e to g, after which e is pending in g's current run: its
// sample, if any, joins the pending ones only after the Add, which may
// hand out the previous run and with it the samples before e.
func (c *consumer) add(g *Grouper, e Event) {
	c.see(e)
	g.Add(e.Type)
	if e.born != 0 {
		c.pending = append(c.pending, e.born)
	}
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
