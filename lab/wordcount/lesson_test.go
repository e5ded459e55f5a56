package wordcount

import (
	"context"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/results"
)

// TestReusedBufferAllocatesAlmostNothing: reusing the read buffer is what
// removes the allocations, a count that does not depend on timing (how much
// faster buffering makes the count is a finding of brewput lessons, not a
// test: it depends on the machine).
func TestReusedBufferAllocatesAlmostNothing(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's instrumentation allocates on its own")
	}
	ps, err := Run(context.Background(), Config{Size: 100_000, Reps: 1}, []int{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	byWay := map[string]map[results.Metric]float64{}
	for _, p := range ps {
		byWay[p.Variant()] = p.Metrics
	}
	buffered, reused := byWay["buffered"], byWay["reused"]
	if buffered == nil || reused == nil {
		t.Fatalf("variants measured: %v; want buffered and reused", byWay)
	}
	if reused[MetricAllocsPerOp] >= buffered[MetricAllocsPerOp]/10 {
		t.Errorf("reused makes %.0f allocs/op, buffered %.0f: want under a tenth", reused[MetricAllocsPerOp], buffered[MetricAllocsPerOp])
	}
}
