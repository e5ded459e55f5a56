package aggregate

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// call is one handle call: a run of count events of one type.
type call struct {
	t     Type
	count int
}

// parse parses "a a b" into events, for the tables below.
func parse(s string) []Type {
	evs := []Type{}
	for _, f := range strings.Fields(s) {
		evs = append(evs, Type(f[0]-'a'))
	}
	return evs
}

// calls parses "a4 b3" into calls.
func calls(s string) []call {
	cs := []call{}
	for _, f := range strings.Fields(s) {
		n := 0
		for _, d := range f[1:] {
			n = 10*n + int(d-'0')
		}
		cs = append(cs, call{Type(f[0] - 'a'), n})
	}
	return cs
}

// record returns a handle that appends its calls to *cs.
func record(cs *[]call) func(Type, int) {
	return func(t Type, n int) { *cs = append(*cs, call{t, n}) }
}

// groupCases are the exact calls a stream must give.
var groupCases = []struct{ stream, want string }{
	{"a a a a b b b", "a4 b3"}, // the seed's example; its grouper gave a4 b1 b2
	{"", ""},
	{"b", "b1"},
	{"a b a b", "a1 b1 a1 b1"},
	{"a a b a a", "a2 b1 a2"},
	{"c c c c c c c c c c c c", "c12"},
	{"a b b c c c", "a1 b2 c3"}, // the last run, the longest, is handed out at the end
	{"a a b b a a c", "a2 b2 a2 c1"},
}

func TestGrouper(t *testing.T) {
	for _, tc := range groupCases {
		got := []call{}
		g := NewGrouper(record(&got))
		for _, e := range parse(tc.stream) {
			g.Add(e)
		}
		g.Flush()
		if want := calls(tc.want); !slices.Equal(got, want) {
			t.Errorf("grouping %q gave %v, want %v", tc.stream, got, want)
		}
	}
	var got []call
	g := NewGrouper(record(&got))
	g.Flush() // nothing to hand out
	for _, e := range parse("a a b") {
		g.Add(e)
	}
	if want := calls("a2"); !slices.Equal(got, want) {
		t.Errorf("after a a b: handed out %v, want %v", got, want)
	}
	g.Flush()
	g.Flush() // the run goes out once
	g.Add(B)  // after a Flush, b starts a new run even though the last was b
	g.Flush()
	if want := calls("a2 b1 b1"); !slices.Equal(got, want) {
		t.Errorf("handed out %v, want %v", got, want)
	}
	if A.String() != "a" || C.String() != "c" {
		t.Errorf("type names: %s %s", A, C)
	}
}

// consume runs a consumer over ch, grouped or not, calling handle.
func consume(ch <-chan Event, grouped bool, handle func(Type, int)) {
	(&consumer{handle: handle}).consume(ch, grouped)
}

// filled returns a closed channel holding the events of stream.
func filled(stream string) chan Event {
	evs := parse(stream)
	ch := make(chan Event, len(evs))
	for _, t := range evs {
		ch <- Event{Type: t}
	}
	close(ch)
	return ch
}

// TestConsumeWaiting: what is waiting in the channel is grouped exactly as
// the Grouper groups it, and the one-by-one consumer calls once per event.
func TestConsumeWaiting(t *testing.T) {
	for _, tc := range groupCases {
		var got []call
		consume(filled(tc.stream), true, record(&got))
		if want := calls(tc.want); !slices.Equal(got, want) {
			t.Errorf("grouped consumer of %q called %v, want %v", tc.stream, got, want)
		}
		got = nil
		consume(filled(tc.stream), false, record(&got))
		var want []call
		for _, e := range parse(tc.stream) {
			want = append(want, call{e, 1})
		}
		if !slices.Equal(got, want) {
			t.Errorf("single consumer of %q called %v, want %v", tc.stream, got, want)
		}
	}
}

// TestConsumeTrickle: events that arrive one at a time through an
// unbuffered channel, the consumer waiting for each, are grouped into the
// same calls as when they all wait in the channel: a run is one call
// however it arrives, and handed out when the next type arrives.
func TestConsumeTrickle(t *testing.T) {
	for _, tc := range groupCases {
		ch := make(chan Event)
		var got []call
		done := make(chan struct{})
		go func() {
			defer close(done)
			consume(ch, true, record(&got))
		}()
		for _, e := range parse(tc.stream) {
			ch <- Event{Type: e}
			time.Sleep(100 * time.Microsecond) // let the consumer wait for the next one
		}
		close(ch)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the consumer did not return 10 s after the channel was closed")
		}
		if want := calls(tc.want); !slices.Equal(got, want) {
			t.Errorf("grouped consumer of %q arriving one by one called %v, want %v", tc.stream, got, want)
		}
	}
}

// TestConsumeExitsOnClose: both consumers return when the channel is
// closed, the last run handed out first, whether they are waiting on an
// empty channel or still have events to read.
func TestConsumeExitsOnClose(t *testing.T) {
	for _, grouped := range []bool{true, false} {
		ch := make(chan Event, 4)
		var got []call
		done := make(chan struct{})
		go func() {
			defer close(done)
			consume(ch, grouped, record(&got))
		}()
		ch <- Event{Type: C}
		ch <- Event{Type: C}
		close(ch)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the consumer did not return 10 s after the channel was closed")
		}
		total := 0
		for _, c := range got {
			if c.t != C || c.count < 1 {
				t.Errorf("handled %v of a stream of c only", c)
			}
			total += c.count
		}
		if total != 2 {
			t.Errorf("handled %d events of 2 (%v)", total, got)
		}
	}
}
