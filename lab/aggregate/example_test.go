package aggregate_test

import (
	"fmt"

	"github.com/brewput/brewput/lab/aggregate"
)

// The seed's stream: its grouper handed it out as (a,4), (b,1), (b,2);
// the event that ends a run starts the next one here.
func ExampleGroup() {
	a, b := aggregate.A, aggregate.B
	for _, call := range aggregate.Group([]aggregate.Type{a, a, a, a, b, b, b}) {
		fmt.Printf("handle(%v, %d)\n", call.Type, call.Count)
	}
	// Output:
	// handle(a, 4)
	// handle(b, 3)
}

// Consume makes one call per run of one type, and hands out the last run
// when the channel is closed.
func ExampleConsume() {
	ch := make(chan aggregate.Event, 10)
	for _, t := range []aggregate.Type{aggregate.C, aggregate.A, aggregate.A, aggregate.B, aggregate.B, aggregate.B} {
		ch <- aggregate.Event{Type: t}
	}
	close(ch)
	aggregate.Consume(ch, func(t aggregate.Type, count int) {
		fmt.Printf("handle(%v, %d)\n", t, count)
	})
	// Output:
	// handle(c, 1)
	// handle(a, 2)
	// handle(b, 3)
}
