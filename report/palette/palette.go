// Package palette is the colours both of brewput's pages draw with, the
// report and the playground: a fixed colour for each mode a system
// declares one (each of the coffee shop's usual modes) and for each
// step's machine, so that a mode or a step looks the same on either page
// and from one link to the next, whichever other modes share the chart.
package palette

import (
	"fmt"
	"image/color"
	"slices"

	"github.com/brewput/brewput/results"
)

// Cycle is Tableau's category10 (matplotlib's and d3's default): the
// colours the modes are given, and cycled onto past ten.
func Cycle() []color.RGBA {
	return []color.RGBA{
		RGB(0x1f77b4), // blue
		RGB(0xff7f0e), // orange
		RGB(0x2ca02c), // green
		RGB(0xd62728), // red
		RGB(0x9467bd), // purple
		RGB(0x8c564b), // brown
		RGB(0xe377c2), // pink
		RGB(0x7f7f7f), // grey
		RGB(0xbcbd22), // olive
		RGB(0x17becf), // cyan
	}
}

// Modes gives each of modes a colour: one declared its own (a usual mode
// of the shop) that colour of the cycle; any other, in the order given,
// the first of the cycle that no mode here has yet, and past ten the
// cycle again from its start. declared may be nil: none has its own.
func Modes(modes []string, declared results.Modes) map[string]color.RGBA {
	out := map[string]color.RGBA{}
	var used []color.RGBA
	for _, m := range modes {
		if declared == nil {
			break
		}
		if i, ok := declared.Colour(m); ok {
			out[m] = Cycle()[i]
			used = append(used, out[m])
		}
	}
	cycle, n := Cycle(), 0
	for _, m := range modes {
		if _, ok := out[m]; ok {
			continue
		}
		i := slices.IndexFunc(cycle, func(c color.RGBA) bool { return !slices.Contains(used, c) })
		if i < 0 { // all ten taken: cycle
			i = n % len(cycle)
			n++
		}
		out[m] = cycle[i]
		used = append(used, cycle[i])
	}
	return out
}

// Steps maps to its colour each kind of machine a step runs on, combining
// ("combine") and Go code outside the steps ("").
func Steps() map[string]color.RGBA {
	return map[string]color.RGBA{
		"grinder":  RGB(0xf28e2b),
		"espresso": RGB(0x9c755f),
		"steamer":  RGB(0x76b7b2),
		"combine":  RGB(0x4e79a7),
		"":         RGB(0xd0d0d0),
	}
}

// Hex is c as CSS writes it, "#1f77b4".
func Hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// RGB is the opaque colour 0xRRGGBB.
func RGB(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }
