package format

import "testing"

func TestPercents(t *testing.T) {
	pct0 := func(f float64) string { return Percent(f, 0) }
	check(t, "Percent0", pct0, cases[float64]{{0.58, "58 %"}, {1, "100 %"}, {0, "0 %"}, {-0.25, "-25 %"}, {nan, "?"}})
	pct1 := func(f float64) string { return Percent(f, 1) }
	check(t, "Percent1", pct1, cases[float64]{{0.091, "9.1 %"}, {0.9995, "100.0 %"}, {nan, "?"}})
	check(t, "Gain", Gain, cases[float64]{{0.5, "+50 %"}, {0.073, "+7.3 %"}, {-0.004, "-0.4 %"}, {0.0994, "+9.9 %"},
		{0.0996, "+10 %"}, {-0.25, "-25 %"}, {0, "+0.0 %"}, {-0.0004, "+0.0 %"}, {0.0004, "+0.0 %"}})
	check(t, "WholeGain", WholeGain, cases[float64]{{0.25, "+25 %"}, {-0.03, "-3 %"}, {0.004, "0 %"}, {-0.004, "0 %"}, {1, "+100 %"}})
	check(t, "Delta", Delta, cases[float64]{{1.53, "+1.5%"}, {-0.3, "-0.3%"}, {0, "+0.0%"}, {nan, "?"}, {inf, "?"}})
}

func TestWords(t *testing.T) {
	count := func(n int) string { return Count(n, "CPU") }
	check(t, "Count", count, cases[int]{{0, "0 CPUs"}, {1, "1 CPU"}, {-1, "-1 CPU"}, {2, "2 CPUs"}, {-3, "-3 CPUs"}})
	check(t, "JoinAnd", JoinAnd, cases[[]string]{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"}})
	check(t, "Capital", Capital, cases[string]{{"", ""}, {"a", "A"}, {"the grinder", "The grinder"}, {"On 2 CPUs", "On 2 CPUs"}})
	ints := func(xs []int) string { return Ints(xs, ", ") }
	check(t, "Ints", ints, cases[[]int]{{nil, ""}, {[]int{4}, "4"}, {[]int{1, 2, 16}, "1, 2, 16"}})
	if got := Range("491", "499"); got != "491–499" {
		t.Errorf("Range = %q", got)
	}
	if got := Range("4.00", "4.00"); got != "4.00" {
		t.Errorf("Range of one = %q", got)
	}
	wrap := func(s string) string { return Wrap(s, 10, "  ") }
	check(t, "Wrap", wrap, cases[string]{{"", ""}, {"one two three four", "one two\n  three\n  four"},
		{"a verylongwordindeed b", "a\n  verylongwordindeed\n  b"}, {"exactly 10", "exactly 10"}})
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"modle", "model", 2}, {"mdoes", "modes", 2}, {"cpu", "cpus", 1}, {"", "abc", 3}, {"same", "same", 0}, {"kitten", "sitting", 3}} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
