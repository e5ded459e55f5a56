package prose

import "testing"

func TestJoinAnd(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := JoinAnd(c.in); got != c.want {
			t.Errorf("JoinAnd(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCapital(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "A", "the grinder": "The grinder", "On 2 CPUs": "On 2 CPUs"} {
		if got := Capital(in); got != want {
			t.Errorf("Capital(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGain(t *testing.T) {
	for g, want := range map[float64]string{0.5: "+50 %", 0.073: "+7.3 %", -0.004: "-0.4 %", 0.0994: "+9.9 %", 0.0996: "+10 %", -0.25: "-25 %", 0: "+0.0 %"} {
		if got := Gain(g); got != want {
			t.Errorf("Gain(%v) = %q, want %q", g, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 points"}, {1, "1 point"}, {-1, "-1 point"}, {2, "2 points"}, {-3, "-3 points"}} {
		if got := Count(tc.n, "point"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestInts(t *testing.T) {
	if got := Ints([]int{1, 2, 16}, ", "); got != "1, 2, 16" {
		t.Errorf("%q", got)
	}
	if got := Ints(nil, ","); got != "" {
		t.Errorf("none: %q", got)
	}
}
