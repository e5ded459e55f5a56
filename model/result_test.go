package model

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSortDurations: sortDurations orders as slices.Sort does, many or
// few, with negatives, repeats, in order already, and durations up to the
// largest.
func TestSortDurations(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var k time.Duration
	for _, c := range []struct {
		n    int
		draw func() time.Duration
	}{
		{5000, func() time.Duration { return time.Duration(r.Int64N(int64(20 * time.Millisecond))) }},
		{5000, func() time.Duration { return time.Duration(r.Int64N(4)) * time.Millisecond }},
		{5000, func() time.Duration { return time.Duration(r.Int64N(math.MaxInt64)) }},
		{5000, func() time.Duration { return time.Duration(r.Int64N(2000) - 10) }},
		{5000, func() time.Duration { k += time.Duration(r.Int64N(2)); return k }},
		{100, func() time.Duration { return time.Duration(r.Int64N(1000)) }},
		{0, nil},
	} {
		l := make([]time.Duration, c.n)
		for i := range l {
			l[i] = c.draw()
		}
		want := slices.Sorted(slices.Values(l))
		if sortDurations(l); !slices.Equal(l, want) {
			t.Errorf("%d durations: sorted %v…, want %v…", c.n, l[:min(5, c.n)], want[:min(5, c.n)])
		}
	}
}
