package stream_test

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab/stream"
)

// A small async run with faulty messages: every message is accounted for,
// the malformed ones rejected by the peer, the oversized ones refused by
// the client, and the rest replied to on the same stream.
func ExampleRun() {
	c := stream.DefaultConfig()
	c.Modes, c.Buffers, c.Messages, c.Reps = []string{stream.ModeAsync}, []int{10}, 500, 1
	c.Malformed, c.Oversized = 4, 6
	points, err := stream.Run(context.Background(), c, []int{1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range points {
		m := p.Metrics
		fmt.Printf("%s: %.0f replied, %.0f rejected, %.0f refused, %.0f lost, %.0f reconnects\n",
			p.Variant(), m["replied"], m["failed_rejected"], m["failed_too_large"], m["lost"], m["reconnects"])
	}
	// Output: async/buf=10: 490 replied, 4 rejected, 6 refused, 0 lost, 0 reconnects
}
