package results

import (
	"strings"
	"testing"
)

// Numbers, rates and a lab's metrics read without e-notation, in units
// their names say.
func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 64: "64", 50000: "50000", 477400: "477k", 1.791e6: "1.79M", 999950: "1M",
		0.8429: "0.843", 12.34: "12.3", 0.00285: "0.00285", 5917.3: "5917", -3.5: "-3.5", 4.17e9: "4.17G"} {
		if got := FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%g) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{999.7: "1000 ops/s", 874: "874 ops/s", 4.774e5: "477 kops/s", 999999: "1 Mops/s", 3.12e9: "3.12 Gops/s", 0.5: "0.5 ops/s"} {
		if got := FormatRate(v, "ops/s"); got != want {
			t.Errorf("FormatRate(%g) = %q, want %q", v, got, want)
		}
	}
	for _, c := range []struct {
		m    Metric
		v    float64
		want string
	}{{"bound_lines_per_s", 5.917e5, "592k/s"}, {"median_ms", 0.00285, "2.9 µs"}, {"cpu_us_per_id", 45, "45 µs"}, {"wall_s", 1.234, "1.23 s"}, {"wall_s", 0.0031, "3.1 ms"}, {"of_bound", 0.8429, "0.843"}, {"chan_size", 1000, "1000"}} {
		if got := FormatMetric(c.m, c.v); got != c.want {
			t.Errorf("FormatMetric(%s, %g) = %q, want %q", c.m, c.v, got, c.want)
		}
	}
	for _, v := range []float64{1e-9, 1e20, 123456789, 0.1 + 0.2} {
		if s := FormatNumber(v); strings.ContainsAny(s, "e+") {
			t.Errorf("FormatNumber(%g) = %q: e-notation", v, s)
		}
	}
}
