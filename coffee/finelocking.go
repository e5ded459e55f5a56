package coffee

// fineLocking gives each machine its own lock, held only for that machine's
// step, and combines with no lock at all. Customers now overlap, one on each
// machine, until a machine is busy all the time.
//
// The same structure makes the americano and espresso modes, which skip the
// steamer (and, for espresso, the combine step).
type fineLocking struct {
	kitchen                    // the machines, for their meters; reached only through the locks below
	grinder, espresso, steamer *lockedMachine
}

func newFineLocking(steps Steps, drink Drink) *fineLocking {
	k := newKitchen(steps, drink)
	return &fineLocking{
		kitchen:  k,
		grinder:  &lockedMachine{Machine: k.grinder},
		espresso: &lockedMachine{Machine: k.espresso},
		steamer:  &lockedMachine{Machine: k.steamer},
	}
}

func (s *fineLocking) Brew() error {
	s.grinder.use(s.steps.grind())
	s.espresso.use(s.steps.press())
	if s.drink.Steams() {
		s.steamer.use(s.steps.steam())
	}
	if s.drink.Combines() {
		s.steps.combine()
	}
	return nil
}
