package results

// Modes is what a system declares of its modes that the explanation and
// the report treat apart, read without the system's code.
type Modes interface {
	// Races reports whether mode is a design with a data race on
	// purpose (the shop's ideal): the CPUs' ceiling, a reference.
	Races(mode string) bool
	// Group is where the report's small multiples draw mode, and the
	// group's title; an undeclared mode is among the last group.
	Group(mode string) (order int, title string)
	// Colour is mode's own colour on every page, an index into the
	// report's cycle of ten; ok is false where it has none.
	Colour(mode string) (colour int, ok bool)
	// Known reports whether the system declares mode.
	Known(mode string) bool
}
