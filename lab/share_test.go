package lab

import "testing"

// Shares add up to the total, each the even share or one more, the
// larger ones first.
func TestShare(t *testing.T) {
	for _, tc := range []struct{ total, parts int }{{10, 3}, {32, 32}, {1000, 7}, {5, 1}, {2, 5}, {100, 1}, {5003, 17}} {
		sum, prev := 0, tc.total
		for i := range tc.parts {
			n := Share(tc.total, tc.parts, i)
			if d := n - tc.total/tc.parts; d < 0 || d > 1 || n > prev {
				t.Errorf("%d among %d: part %d takes %d", tc.total, tc.parts, i, n)
			}
			sum, prev = sum+n, n
		}
		if sum != tc.total {
			t.Errorf("%d among %d: %d in all", tc.total, tc.parts, sum)
		}
	}
}
