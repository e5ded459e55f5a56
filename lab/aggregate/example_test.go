package aggregate_test

import (
	"fmt"

	"github.com/brewput/brewput/lab/aggregate"
)

// The seed's stream: its grouper handed it out as (a,4), (b,1), (b,2);
// the event that ends a run starts the next one here.
func ExampleGrouper() {
	g := aggregate.NewGrouper(func(t aggregate.Type, count int) { fmt.Printf("handle(%v, %d)\n", t, count) })
	a, b := aggregate.A, aggregate.B
	for _, t := range []aggregate.Type{a, a, a, a, b, b, b} {
		g.Add(t)
	}
	g.Flush()
	// Output:
	// handle(a, 4)
	// handle(b, 3)
}
