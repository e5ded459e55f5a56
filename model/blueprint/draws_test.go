package blueprint

import (
	"slices"
	"testing"
)

// sharedPairs is how many pairs of CPUs share a copy in copies.
func sharedPairs(copies []int) int {
	load := map[int]int{}
	pairs := 0
	for _, c := range copies {
		pairs += load[c]
		load[c]++
	}
	return pairs
}

// TestDraws: a hashed resource's draw for the point shares no fewer pairs
// of CPUs than the band's fast run's and no more than its slow run's, each
// a copy among as many as there are CPUs, the same for the same seed.
func TestDraws(t *testing.T) {
	for _, n := range []int{2, 3, 8, 16, 64} {
		for seed := uint64(1); seed <= 5; seed++ {
			point, fast, slow := draws(n, seed, 0), draws(n, seed, 1), draws(n, seed, 2)
			for _, d := range [][]int{point, fast, slow, draws(n, seed, 3)} {
				if len(d) != n || slices.Min(d) < 0 || slices.Max(d) >= n {
					t.Fatalf("%d CPUs, seed %d: draw %v; want %d copies each in [0, %d)", n, seed, d, n, n)
				}
			}
			if p, f, s := sharedPairs(point), sharedPairs(fast), sharedPairs(slow); f > p || p > s {
				t.Errorf("%d CPUs, seed %d: pairs sharing a copy %d at the point, %d and %d at the band's runs; want the point's between", n, seed, p, f, s)
			}
			if again := draws(n, seed, 0); !slices.Equal(again, point) {
				t.Errorf("%d CPUs, seed %d: %v, then %v", n, seed, point, again)
			}
		}
		// Two CPUs share theirs half the time: the band's runs are one of
		// each, whatever the seed.
		if n == 2 {
			for seed := uint64(1); seed <= 5; seed++ {
				if f, s := sharedPairs(draws(2, seed, 1)), sharedPairs(draws(2, seed, 2)); f != 0 || s != 1 {
					t.Errorf("2 CPUs, seed %d: %d and %d pairs sharing at the band's runs; want 0 and 1", seed, f, s)
				}
			}
		}
	}
}
