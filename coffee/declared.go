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

// Group is the group of mode's family (Others for a name that is no
// mode of the shop), and its title.
func (Declared) Group(mode string) (order int, title string) {
	g := Others
	if m, err := ParseMode(mode); err == nil {
		g = FamilyOf(m).Group
	}
	return int(g), g.String()
}

// Colour is the colour mode's family gives it where mode is one of its
// usual modes, named as Mode.String names it, as an index into the
// report's cycle (Blue is 0).
func (Declared) Colour(mode string) (colour int, ok bool) {
	m, err := ParseMode(mode)
	if err != nil || m.String() != mode {
		return 0, false
	}
	for _, u := range FamilyOf(m).Usual {
		if u.N == m.N && u.Colour != NoColour {
			return int(u.Colour - Blue), true
		}
	}
	return 0, false
}

func (Declared) Known(mode string) bool {
	_, err := ParseMode(mode)
	return err == nil
}
