package aggregate

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/guard"
)

// TestGroupingLesson: on 2 CPUs, with 2 producers making runs of 8 events
// on average and a handle call of 2 µs, the grouped consumer gets clearly
// more events through than the one-by-one one, unbuffered and with a
// buffer of 100, because it makes several times fewer calls. See
// groupingGain for what a 2-CPU machine measured.
func TestGroupingLesson(t *testing.T) {
	guard.Timing(t, 2)
	c := Config{Events: 30_000, Producers: []int{2}, Buffers: []int{0, 100}, RunLength: 8, HandleCost: 2 * time.Microsecond, Seed: 1, Reps: 3}
	guard.Retry(t, func() error {
		points, err := Run(context.Background(), c, []int{2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(points); i += 2 {
			single, grouped := points[i], points[i+1]
			sp := grouped.Metrics["speedup"]
			t.Logf("%s: %.0f events/s; %s: %.0f events/s, %.2f events/call: x%.2f",
				single.Variant, single.Throughput, grouped.Variant, grouped.Throughput, grouped.Metrics["events_per_call"], sp)
			want := groupingGain
			if grouped.Metrics["buffer"] == 0 {
				want = unbufferedGain
			}
			if sp < want {
				return fmt.Errorf("%s reaches %.0f events/s, %s %.0f: x%.2f, want at least x%.2f",
					grouped.Variant, grouped.Throughput, single.Variant, single.Throughput, sp, want)
			}
		}
		return nil
	})
}

// groupingGain is the least gain in events/s that TestGroupingLesson
// accepts from grouping. On a 2-CPU virtual machine (Xeon at 2.5 GHz,
// Go 1.26) one run of the test measured x5.2 at S=100 and x3.4
// unbuffered, with 7.6 to 7.8 events per call, and the CLI's sweeps x3.8
// to x9 at 2 CPUs; x3 leaves room for that machine's noise.
const groupingGain = 3.0

// unbufferedGain is the least gain accepted through an unbuffered channel,
// where each event costs the producers a handover with the consumer.
const unbufferedGain = 2.0
