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
		rgb(0x1f77b4), // blue
		rgb(0xff7f0e), // orange
		rgb(0x2ca02c), // green
		rgb(0xd62728), // red
		rgb(0x9467bd), // purple
		rgb(0x8c564b), // brown
		rgb(0xe377c2), // pink
		rgb(0x7f7f7f), // grey
		rgb(0xbcbd22), // olive
		rgb(0x17becf), // cyan
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
			out[m] = cycle[n%len(cycle)]
			n++
			continue
		}
		out[m] = cycle[i]
		used = append(used, cycle[i])
	}
	return out
}

// Step is the colour of a step on kind of machine ("grinder", "espresso",
// "steamer"), of combining, which uses no machine ("combine"), and of Go
// code outside the steps (""); ok is false for another kind.
func Step(kind string) (c color.RGBA, ok bool) {
	c, ok = Steps()[kind]
	return c, ok
}

// Steps maps each kind Step knows to its colour.
func Steps() map[string]color.RGBA {
	return map[string]color.RGBA{
		"grinder":  rgb(0xf28e2b),
		"espresso": rgb(0x9c755f),
		"steamer":  rgb(0x76b7b2),
		"combine":  rgb(0x4e79a7),
		"":         rgb(0xd0d0d0),
	}
}

// Hex is c as CSS writes it, "#1f77b4".
func Hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }
