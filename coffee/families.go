package coffee

import (
	"slices"
	"sync"
)

// Family is one family of modes, declared once: the real shop and its
// model are built from its Drink and Shape, advise tries its Neighbours,
// and the report, the playground and help read its Group and Usual modes.
type Family struct {
	Name    string // e.g. "multi"
	Summary string // one line
	Drink   Drink
	Shape   Shape
	// Group is where the report's small multiples draw its modes.
	Group Group
	// Usual are its modes that brewput's pages know by name.
	Usual []Usual
	// Neighbours are the modes one change of design away, which advise
	// simulates beside the causal profile's reliefs.
	Neighbours []Neighbour
}

// Families lists every family of modes, in the order of the talk: the one
// registration of a mode. A new Shape needs its coffee file and its case
// in blueprint.Shop.
func Families() []Family {
	return []Family{
		{Name: "ideal", Summary: "no synchronization at all: perfect scaling, and a data race (the lesson)",
			Shape: Shape{Holds: Nothing}, Usual: []Usual{{Colour: Grey, Talk: true, Study: true}}},
		{Name: "locking", Summary: "one lock around the whole kitchen for the whole latte",
			Shape: Shape{Holds: KitchenLock}, Usual: []Usual{{Colour: Red, Talk: true, Study: true}},
			Neighbours: []Neighbour{{Change: "a lock per machine instead of one for the kitchen", Family: "finelocking"}}},
		{Name: "finelocking", Summary: "one lock per machine, held only during that machine's step",
			Shape: Shape{Holds: MachineLocks}, Usual: []Usual{{Colour: Orange, Talk: true, Study: true}},
			Neighbours: []Neighbour{{Change: "another copy of each machine", Family: "multi", N: 2},
				{Change: "steam the milk while grinding and pressing", Family: "parsteam"}}},
		{Name: "parsteam", Summary: "finelocking, with the milk steamed in its own goroutine in parallel with grind and press",
			Shape: Shape{Holds: MachineLocks, Forked: true}, Usual: []Usual{{Colour: Pink, Study: true}},
			Neighbours: []Neighbour{{Change: "another copy of each machine", Family: "multi", N: 2}}},
		{Name: "americano", Summary: "finelocking without the steam step (combine still runs)",
			Drink: Americano, Shape: Shape{Holds: MachineLocks}},
		{Name: "espresso", Summary: "finelocking with grind and press only",
			Drink: Espresso, Shape: Shape{Holds: MachineLocks}},
		{Name: "multi", Summary: "N copies of each machine, handed out through a buffered channel of machines",
			Shape: Shape{Holds: MachineLocks, N: MachineCopies}, Group: Replicas,
			Usual:      []Usual{{N: 2, Colour: Green, Talk: true, Study: true}, {N: 4, Colour: Olive}},
			Neighbours: []Neighbour{{Change: "another copy of each machine", Family: "multi", N: 1, PlusN: true}}},
		{Name: "linearpipe", Summary: "a goroutine per machine connected by channels with buffer N; the customer hands in an order, waits, then combines",
			Shape: Shape{Holds: Stages, N: ChannelBuffer}, Group: Pipelines,
			Usual: []Usual{{N: 0, Colour: Purple, Talk: true, Study: true}, {N: 1, Colour: Blue, Talk: true, Study: true},
				{N: 10, Colour: Cyan, Talk: true, Study: true}},
			Neighbours: []Neighbour{{Change: "another line of machines", Family: "multipipe", N: 2},
				{Change: "steam the milk on a branch of its own", Family: "splitpipe", PlusN: true}}},
		{Name: "splitpipe", Summary: "a pipeline where steaming is a branch parallel to grind and press, channels with buffer N",
			Shape: Shape{Holds: Stages, N: ChannelBuffer, Forked: true}, Group: Pipelines, Usual: []Usual{{N: 1}}},
		{Name: "multipipe", Summary: "N copies of linearpipe-1 sharing one order queue",
			Shape: Shape{Holds: Stages, N: PipelineCopies}, Group: Replicas,
			Usual:      []Usual{{N: 2, Colour: Brown, Talk: true, Study: true}},
			Neighbours: []Neighbour{{Change: "another line of machines", Family: "multipipe", N: 1, PlusN: true}}},
		{Name: "americanopipe", Summary: "the pipeline form of americano: grind and press stages, channel buffer N, the customer combines",
			Drink: Americano, Shape: Shape{Holds: Stages, N: ChannelBuffer}, Group: Pipelines},
		{Name: "espressopipe", Summary: "the pipeline form of espresso: grind and press stages, channel buffer N",
			Drink: Espresso, Shape: Shape{Holds: Stages, N: ChannelBuffer}, Group: Pipelines},
		{Name: "noop", Summary: "does nothing: measures the harness itself",
			Shape: Shape{Holds: NoShop}, Group: Others},
	}
}

// Shape is how a family organizes the shop: what a drink holds while its
// steps run, what N counts, and whether the milk is steamed beside the
// coffee (Forked; a latte only).
type Shape struct {
	Holds  Holds
	N      Count
	Forked bool
}

// Holds is what a drink holds while a step runs.
type Holds int

const (
	NoShop       Holds = iota // no steps at all, the harness alone (noop)
	Nothing                   // the machines, with no synchronization (ideal)
	KitchenLock               // one lock around the kitchen for the whole drink
	MachineLocks              // a lock per machine for its step, or a pool of copies
	Stages                    // a goroutine per machine, orders passed on channels
)

// Count is what a family's N counts.
type Count int

const (
	NoNumber       Count = iota
	MachineCopies        // copies of each machine, in a pool
	ChannelBuffer        // room in each channel into a stage
	PipelineCopies       // whole pipelines, sharing one order queue, each channel's buffer 1
)

// Group is where the report's small multiples draw a family, in order.
type Group int

const (
	Locks Group = iota // the locks, with ideal (no lock) as the baseline
	Replicas
	Pipelines
	Others
)

// String is the group's title on the report's panels.
func (g Group) String() string {
	return [...]string{"Locks (and ideal, no lock)", "Replicas", "Pipelines", "Other modes"}[g]
}

// Usual is one of a family's modes that the pages know by name.
type Usual struct {
	N      int
	Colour Colour // its own on the report and the playground alike
	// Talk: one of the talk's eight modes, which the playground opens on;
	// Study: in the default study.
	Talk, Study bool
}

// Colour is a usual mode's own colour, one of the ten of report/palette's
// Cycle, in its order; NoColour leaves it a free one.
type Colour int

const (
	NoColour Colour = iota
	Blue
	Orange
	Green
	Red
	Purple
	Brown
	Pink
	Grey
	Olive
	Cyan
)

// Neighbour is a mode one change of design away.
type Neighbour struct {
	Change string // what changes, in words: "another copy of each machine"
	Family string
	N      int
	PlusN  bool // the neighbour's N is N more than the mode's own
}

// Of is the neighbour of mode m.
func (n Neighbour) Of(m Mode) Mode {
	if n.PlusN {
		return Mode{Family: n.Family, N: m.N + n.N}
	}
	return Mode{Family: n.Family, N: n.N}
}

// FamilyOf is mode m's family; the zero Family if there is none.
func FamilyOf(m Mode) Family {
	for _, f := range families() {
		if f.Name == m.Family {
			f.Usual, f.Neighbours = slices.Clone(f.Usual), slices.Clone(f.Neighbours)
			return f
		}
	}
	return Family{}
}

// families is Families made once, for FamilyOf is asked many times a
// simulation; FamilyOf hands out copies, so that the list stays as made.
var families = sync.OnceValue(Families)

// Param says what N means for the family's modes, or "" if it takes none.
func (f Family) Param() string {
	return [...]string{"", "copies of each machine", "channel buffer", "copies of the pipeline"}[f.Shape.N]
}

func (f Family) minN() int {
	if f.Shape.N == ChannelBuffer {
		return 0
	}
	return 1
}

// Pipeline reports whether the family's machines are stages with
// channels between them.
func (f Family) Pipeline() bool { return f.Shape.Holds == Stages }

// Copies is how many of each machine mode m has (on each line).
func (m Mode) Copies() int {
	if FamilyOf(m).Shape.N == MachineCopies {
		return m.N
	}
	return 1
}

// Lines is how many pipelines mode m has: 1 but for PipelineCopies.
func (m Mode) Lines() int {
	if FamilyOf(m).Shape.N == PipelineCopies {
		return m.N
	}
	return 1
}

// Buffer is the room in mode m's channels into its stages.
func (m Mode) Buffer() int {
	switch FamilyOf(m).Shape.N {
	case ChannelBuffer:
		return m.N
	case PipelineCopies:
		return 1
	}
	return 0
}

// build makes mode m's shop, changed by v (checked), from its family's
// Drink and Shape.
func (m Mode) build(steps Steps, v Variant) Shop {
	f := FamilyOf(m)
	switch f.Shape.Holds {
	case NoShop:
		return noop{}
	case Nothing:
		return newFineLocking(steps, f.Drink, Machines{}, unguarded)
	case KitchenLock:
		return newLocking(steps, f.Drink, v.Split)
	case MachineLocks:
		g := locked
		if f.Shape.N == MachineCopies { // multi-N: pools of N
			g = pooled
		}
		s := newFineLocking(steps, f.Drink, v.Copies.Or(m.Copies()), g)
		if f.Shape.Forked {
			return &parSteam{s}
		}
		return s
	case Stages:
		return newPipeline(steps, f.Drink, m.Buffer(), m.Lines(), f.Shape.Forked, v)
	}
	panic("coffee: family " + f.Name + " has a shape no shop is built of")
}
