package palette

import (
	"image/color"
	"testing"

	"github.com/brewput/brewput/coffee"
)

// The talk's eight modes, drawn together, get eight different colours, and
// each the same whatever shares the chart (issue 42: a mode's colour
// changed from one link to the next, and the ninth took the first's).
func TestModesFixedAndDistinct(t *testing.T) {
	talk := []string{"finelocking", "ideal", "locking", "multi-2", "linearpipe-0", "linearpipe-1", "linearpipe-10", "multipipe-2"}
	all := Modes(talk, coffee.Declared{})
	seen := map[color.RGBA]string{}
	for _, m := range talk {
		if other, ok := seen[all[m]]; ok {
			t.Errorf("%s and %s share %s", m, other, Hex(all[m]))
		}
		seen[all[m]] = m
	}
	// Another link: fewer modes, in another order, one the palette does
	// not know.
	few := Modes([]string{"bakery", "multipipe-2", "locking"}, coffee.Declared{})
	for _, m := range []string{"multipipe-2", "locking"} {
		if few[m] != all[m] {
			t.Errorf("%s is %s beside the talk's modes, %s beside bakery", m, Hex(all[m]), Hex(few[m]))
		}
	}
	if few["bakery"] == few["multipipe-2"] || few["bakery"] == few["locking"] {
		t.Errorf("bakery shares a usual mode's colour %s", Hex(few["bakery"]))
	}
}

// Unknown modes take the cycle in order, then cycle.
func TestModesCycle(t *testing.T) {
	var names []string
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"} {
		names = append(names, n)
	}
	got, c := Modes(names, coffee.Declared{}), Cycle()
	for i, n := range names[:10] {
		if got[n] != c[i] {
			t.Errorf("%s: %s, want %s", n, Hex(got[n]), Hex(c[i]))
		}
	}
	if got["k"] != c[0] {
		t.Errorf("the 11th: %s, want the cycle's first %s", Hex(got["k"]), Hex(c[0]))
	}
}
