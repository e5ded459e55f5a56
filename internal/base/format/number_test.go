package format

import (
	"math"
	"strings"
	"testing"
	"time"
)

var nan, inf = math.NaN(), math.Inf(1)

// check runs f on each input and compares it with what is wanted.
func check[T any](t *testing.T, name string, f func(T) string, cases []struct {
	in   T
	want string
}) {
	t.Helper()
	for _, c := range cases {
		if got := f(c.in); got != c.want {
			t.Errorf("%s(%v) = %q, want %q", name, c.in, got, c.want)
		}
	}
}

type cases[T any] = []struct {
	in   T
	want string
}

func TestNumber(t *testing.T) {
	check(t, "Number", Number, cases[float64]{{0, "0"}, {64, "64"}, {50000, "50000"}, {477400, "477k"}, {1.791e6, "1.79M"},
		{999950, "1M"}, {999.95, "1000"}, {0.8429, "0.843"}, {12.34, "12.3"}, {0.00285, "0.00285"}, {5917.3, "5917"},
		{-3.5, "-3.5"}, {-477400, "-477k"}, {4.17e9, "4.17G"}, {2e15, "2000T"}, {nan, "NaN"}, {inf, "+Inf"}, {-inf, "-Inf"}})
	for _, v := range []float64{1e-9, 1e20, 123456789, 0.1 + 0.2} {
		if s := Number(v); strings.ContainsAny(s, "e+") {
			t.Errorf("Number(%g) = %q: e-notation", v, s)
		}
	}
	check(t, "Whole", Whole, cases[float64]{{498.4, "498"}, {999.5, "1000"}, {99999, "99999"}, {5.99e7, "59.9M"}, {0, "0"}})
}

func TestSigAndDigits(t *testing.T) {
	sig3 := func(v float64) string { return Sig(v, 3) }
	check(t, "Sig3", sig3, cases[float64]{{0, "0"}, {0.8429, "0.843"}, {100, "100"}, {999.95, "1000"}, {99.95, "100"},
		{0.1, "0.1"}, {-12.34, "-12.3"}, {1234.6, "1235"}, {1234.5, "1234"}, {1e-7, "0.0000001"}, {nan, "NaN"}, {inf, "+Inf"}})
	sig6 := func(v float64) string { return Sig(v, 6) }
	check(t, "Sig6", sig6, cases[float64]{{1234.56789, "1234.57"}, {0, "0"}, {1000, "1000"}, {2004008.016, "2004008"},
		{498.3333333, "498.333"}, {0.95, "0.95"}, {0.001234567, "0.00123457"}, {0.000123456789, "0.000123457"}, {-2.5, "-2.5"}, {1e9, "1000000000"}})
	digits4 := func(v float64) string { return Digits(v, 4) }
	check(t, "Digits4", digits4, cases[float64]{{498.3, "498.3"}, {4, "4.000"}, {12345.6, "12346"}, {0.0123, "0.01230"},
		{-7.5, "-7.500"}, {999.95, "1000.0"}, {0, "0"}, {nan, "NaN"}, {-inf, "-Inf"}})
	// A bound rounds up: shown, it is never below a count that meets it.
	atMost1 := func(v float64) string { return AtMost(v, 1) }
	check(t, "AtMost1", atMost1, cases[float64]{{1000.0 / 3, "333.4"}, {250, "250.0"}, {500.00000000000006, "500.0"}, {666.6666, "666.7"}, {0.04, "0.1"}, {0, "0.0"}})
	check(t, "SIAtMost", SIAtMost, cases[float64]{{8064516.129, "8.07M"}, {8066000, "8.07M"}, {8.4e6, "8.4M"}, {14.9e6, "14.9M"}, {2.54e8, "254M"}, {12345, "12.4k"}})
	apart := func(v [2]float64) string { a, b := Apart(v[0], v[1]); return a + " " + b }
	check(t, "Apart", apart, cases[[2]float64]{{[2]float64{255, 250}, "255 250"}, {[2]float64{334, 1000.0 / 3}, "334 333.3"}, {[2]float64{8404000, 8403361.34}, "8404000 8403361"}, {[2]float64{503, 500}, "503 500"}})
	check(t, "Param", Param, cases[float64]{{0, "0"}, {0.123456, "0.1235"}, {0.00001234, "1.234e-05"}, {1, "1"}})
	check(t, "Approx", Approx, cases[int64]{{950, "950"}, {9999, "9999"}, {12345, "12 k"}, {4e6, "4.0 M"}, {1.23e9, "1.2 G"}})
	check(t, "Bytes", Bytes, cases[float64]{{512, "512 B"}, {3.2 * (1 << 20), "3.2 MB"}, {16 << 30, "16.0 GB"}, {0, "0 B"}})
}

// Times and rates read in their units, never in e-notation.
func TestUnits(t *testing.T) {
	rate := func(v float64) string { return Rate(v, "ops/s") }
	check(t, "Rate", rate, cases[float64]{{999.7, "1000 ops/s"}, {874, "874 ops/s"}, {4.774e5, "477 kops/s"}, {999999, "1 Mops/s"},
		{3.12e9, "3.12 Gops/s"}, {0.5, "0.5 ops/s"}, {0, "0 ops/s"}, {-3, "0 ops/s"}})
	check(t, "Wait", Wait, cases[float64]{{0, "0 ms"}, {250, "250 ms"}, {1550, "1550 ms"}, {3.14, "3.1 ms"}, {0.42, "0.42 ms"}, {0.045, "45 µs"},
		{0.0022, "2.2 µs"}, {0.0008, "800 ns"}, {99.96, "100.0 ms"}, {0.6e-6, "1 ns"}, {0.4e-6, "under 1 ns"}})
	check(t, "Seconds", Seconds, cases[float64]{{1.234, "1.23 s"}, {45.6, "45.6 s"}, {0.0031, "3.1 ms"}, {8e-7, "800 ns"}})
	check(t, "Ms", Ms, cases[float64]{{0, "0.00"}, {4, "4.00"}, {12.345, "12.35"}, {0.1, "0.10"}, {0.0285, "0.0285"}, {1e-5, "0.00001"}})
	check(t, "Ms3", Ms3, cases[float64]{{4, "4.00"}, {12, "12.0"}, {250.4, "250"}, {0.42, "0.420"}, {0.1, "0.100"},
		{0.0000167, "0.0000167"}, {0, "0.000"}, {-1, "-1.000"}, {nan, "NaN"}})
	msRange := func(lohi [2]float64) string { return MsRange(lohi[0], lohi[1]) }
	check(t, "MsRange", msRange, cases[[2]float64]{{[2]float64{4.01, 4.21}, "4.01–4.21 ms"}, {[2]float64{4, 4}, "4.00 ms"},
		{[2]float64{0.05, 0.42}, "0.05–0.420 ms"}, {[2]float64{0.000026, 0.000204}, "26.0–204 ns"},
		{[2]float64{0.000007, 0.000007}, "7.00 ns"}, {[2]float64{0.0004, 0.045}, "0.400–45.0 µs"}, {[2]float64{0, 0}, "0.000 ms"}})
	check(t, "Nanos", Nanos, cases[float64]{{1.6, "1.6ns"}, {1.64, "1.6ns"}, {0.42, "0.42ns"}, {9.96, "10ns"}, {31.4, "31ns"},
		{2, "2ns"}, {1250, "1.25µs"}, {0, "0s"}, {-1.6, "-1.6ns"}, {-12.4, "-12ns"}, {4651, "4.651µs"}, {1315529, "1.316ms"},
		{2054702, "2.055ms"}, {-1315529, "-1.316ms"}, {99999, "100µs"}})
	check(t, "Millis", Millis, cases[time.Duration]{{2 * time.Millisecond, "2"}, {2500 * time.Microsecond, "2.5"}, {125 * time.Microsecond, "0.125"},
		{1234567 * time.Nanosecond, "1.235"}, {0, "0"}, {20 * time.Second, "20000"}})
	for _, c := range []struct {
		name string
		v    float64
		want string
	}{{"bound_lines_per_s", 5.917e5, "592k/s"}, {"median_ms", 0.00285, "2.9 µs"}, {"cpu_us_per_id", 45, "45 µs"},
		{"wall_s", 1.234, "1.23 s"}, {"wall_s", 0.0031, "3.1 ms"}, {"of_bound", 0.8429, "0.843"}, {"chan_size", 1000, "1000"}} {
		if got := Metric(c.name, c.v); got != c.want {
			t.Errorf("Metric(%s, %g) = %q, want %q", c.name, c.v, got, c.want)
		}
	}
}
