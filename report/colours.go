package report

import (
	"image/color"
	"slices"
)

// limitClass is a class of analysis.Limit with its colour and its label in
// the map's legend.
type limitClass struct {
	class, label string
	colour       color.RGBA
}

// limitClasses are the classes of analysis.Limit in the order the map's
// legend lists them, each with its colour: what scales in greens, the
// walls in warm colours, nothing to try in greys.
func limitClasses() []limitClass {
	return []limitClass{
		{"cpus", "the CPUs (it scales)", rgb(0x59a14f)},
		{"customers", "the customers", rgb(0xa6d08e)},
		{"kitchen", "the kitchen lock", rgb(0xe15759)},
		{"grinder", "the grinder", rgb(0xf28e2b)},
		{"espresso", "the espresso machine", rgb(0x9c755f)},
		{"steamer", "the steamer", rgb(0x76b7b2)},
		{"machines", "several machines together", rgb(0xedc948)},
		{"channel", "a channel's room", rgb(0xb07aa1)},
		{"step", "a step no machine guards", rgb(0xff9da7)},
		{"none", "nothing tried helps", rgb(0xbab0ac)},
		{"unknown", "not profiled", rgb(0xe8e8e8)},
	}
}

// otherResources colours the resources of YAML systems, which the list
// above does not name, in the order they appear.
func otherResources() []color.RGBA {
	return []color.RGBA{rgb(0x4e79a7), rgb(0xd37295), rgb(0x499894), rgb(0x86bcb6), rgb(0xfabfd2)}
}

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }

// limitColour is a limit class's colour and its legend's label; others
// lists the classes the map met that the list does not name, in order.
func limitColour(class string, others []string) (color.RGBA, string) {
	for _, l := range limitClasses() {
		if l.class == class {
			return l.colour, l.label
		}
	}
	i := max(slices.Index(others, class), 0)
	pal := otherResources()
	return pal[i%len(pal)], class
}

// machineColour is the colour of a step on a kind of machine in the
// schedule, the same as the map gives that machine as a limit; combining,
// which uses no machine, is blue, Go code outside the steps light grey.
func machineColour(kind string) color.RGBA {
	switch kind {
	case "":
		return rgb(0xd0d0d0)
	case "combine":
		return rgb(0x4e79a7)
	}
	c, _ := limitColour(kind, nil)
	return c
}

// ink is black or white, whichever reads on background c.
func ink(c color.RGBA) color.RGBA {
	lum := 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	if lum < 140 {
		return color.RGBA{0xff, 0xff, 0xff, 0xff}
	}
	return color.RGBA{0x1b, 0x1b, 0x1b, 0xff}
}
