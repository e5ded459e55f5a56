package sweep

import "testing"

func TestFormatCPUs(t *testing.T) {
	for want, ids := range map[string][]int{"": nil, "0": {0}, "0-1": {0, 1}, "0-2,5,7-8": {0, 1, 2, 5, 7, 8}} {
		if got := formatCPUs(ids); got != want {
			t.Errorf("formatCPUs(%v) = %q, want %q", ids, got, want)
		}
	}
}
