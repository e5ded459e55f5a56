package results

// Modes is what a system declares of its modes that the explanation
// treats apart (coffee.Declared for the coffee shop's), so that it reads
// the declaration without the system's code.
type Modes interface {
	// Races reports whether mode is a design with a data race on
	// purpose (the shop's ideal): the CPUs' ceiling, a reference.
	Races(mode string) bool
}
