package aggregate

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brewput/brewput/lab"
)

// Type is the type of an event: A, B or C.
type Type uint8

const (
	A Type = iota
	B
	C
	types = 3
)

func (t Type) String() string { return string(rune('a' + t)) }

// Grouper turns events, one Add at a time, into runs of one type, each
// handed to its handler once an event of another type ends it or Flush is
// called: a a a a b b b gives (a,4), (b,3), where the seed's grouper gave
// (a,4), (b,1), (b,2). Not safe for concurrent use.
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

func (g *Grouper) Flush() {
	if g.n > 0 {
		n := g.n
		g.n = 0 // before the call: a handler that panics leaves no run to hand out twice
		g.handle(g.cur, n)
	}
}

// Event is what a producer puts on the channel.
type Event struct {
	Type Type
	// born is, for an event in the latency sample, when it was made in ns
	// since the run's start (never 0); 0 for the others.
	born int64
}

// consumer is the one goroutine that reads the channel: it calls handle,
// counts what it got, and times the sampled events from base to the end
// of their call, into latency if not nil.
type consumer struct {
	handle  func(t Type, count int)
	base    time.Time
	latency *hdrhistogram.Histogram
	pending []int64 // births of the sampled events not yet handled

	events     int64 // received
	calls      int64 // handle calls
	streamRuns int64 // maximal runs of one type in the order received
	last       Type
}

// consume handles ch's events until it is closed, a call per run of one
// type (grouped) or per event. A grouped event's sample joins the pending
// ones after Add, which may hand out the run before it.
func (c *consumer) consume(ch <-chan Event, grouped bool) {
	g := NewGrouper(c.handleRun)
	for e := range ch {
		if c.events == 0 || e.Type != c.last {
			c.streamRuns++
			c.last = e.Type
		}
		c.events++
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

// handleRun calls handle, then records the latency of the sampled events.
func (c *consumer) handleRun(t Type, n int) {
	c.handle(t, n)
	c.calls++
	if len(c.pending) > 0 && c.latency != nil {
		now := int64(time.Since(c.base))
		for _, born := range c.pending {
			lab.Record(c.latency, now-born)
		}
	}
	c.pending = c.pending[:0]
}
