package wordcount

import (
	"context"
	"fmt"
	"testing"

	"github.com/brewput/brewput/internal/guard"
	"github.com/brewput/brewput/results"
)

// TestLessonBuffering: a system call per byte is what makes the bytewise
// count slow, not the counting: through a buffer the same reads, still
// allocating per byte, are at least 5× faster (about 15× on the 2-core
// machine this was written on), and reusing the buffer allocates next to
// nothing. The allocation counts do not depend on timing and are checked
// on every attempt.
func TestLessonBuffering(t *testing.T) {
	guard.Timing(t, 1)
	c := Config{Size: 300_000, Reps: 3}
	guard.Retry(t, func() error {
		ps, err := Run(context.Background(), c, []int{1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		byWay := map[string]map[results.Metric]float64{}
		for _, p := range ps {
			byWay[p.Variant] = p.Metrics
		}
		buffered, reused := byWay["buffered"], byWay["reused"]
		if reused["allocs_per_op"] >= buffered["allocs_per_op"]/10 {
			t.Fatalf("reused makes %.0f allocs/op, buffered %.0f: want under a tenth", reused["allocs_per_op"], buffered["allocs_per_op"])
		}
		t.Logf("buffered %.1f× bytewise, reused %.1f×", buffered["speedup"], reused["speedup"])
		if buffered["speedup"] < 5 {
			return fmt.Errorf("buffered is %.1f× bytewise, want at least 5×", buffered["speedup"])
		}
		return nil
	})
}
