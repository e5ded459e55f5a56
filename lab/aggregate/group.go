package aggregate

import "fmt"

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

// Grouper turns a stream of events, one Add at a time, into runs of
// consecutive events of one type. It holds the current run until an event
// of another type ends it or Flush is called, and only then hands it to
// its handler, whole: the event that ends a run starts the next one
// instead of being handled on its own, which is what the seed's grouper
// got wrong (a a a a b b b gave (a,4), (b,1), (b,2)).
//
// A Grouper is not safe for concurrent use; it belongs to the one consumer.
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

// Group returns the handle calls a Grouper makes of events: one Call for
// each maximal run of consecutive events of one type, the last one
// included. Group(nil) is empty.
func Group(events []Type) []Call {
	runs := []Call{}
	g := NewGrouper(func(t Type, n int) { runs = append(runs, Call{Type: t, Count: n}) })
	for _, t := range events {
		g.Add(t)
	}
	g.Flush()
	return runs
}
