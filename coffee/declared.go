package coffee

// Declared is what the shop's families declare of their modes, by name,
// as results.Modes: the explanation and the report read it without the
// shop's code.
type Declared struct{}

// Races reports whether mode is one of the shop's modes with a data race
// on purpose (Mode.Races); false for any other name.
func (Declared) Races(mode string) bool {
	m, err := ParseMode(mode)
	return err == nil && m.Races()
}
