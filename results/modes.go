package results

// Modes is what a system declares of its modes that the explanation and
// the report treat apart (coffee.Declared for the coffee shop's), so that
// they read the declaration without the system's code.
type Modes interface {
	// Races reports whether mode is a design with a data race on
	// purpose (the shop's ideal): the CPUs' ceiling, a reference.
	Races(mode string) bool
	// Group is where the report's small multiples draw mode, in order,
	// and the group's title; a mode the system does not declare is among
	// its last group.
	Group(mode string) (order int, title string)
	// Colour is mode's own colour on every page, an index into the
	// report's cycle of ten; ok is false where it has none.
	Colour(mode string) (colour int, ok bool)
	// Known reports whether the system declares mode, so that the
	// playground builds it.
	Known(mode string) bool
}
