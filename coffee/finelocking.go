package coffee

// fineLocking gives each machine its own lock, held only for that machine's
// step, and combines with no lock at all. It also makes americano,
// espresso and parsteam's base, multi-N with pools of N machines in place
// of locks, and ideal's and locking's machines with no locks at all.
type fineLocking struct {
	steps                      Steps
	drink                      Drink
	grinder, espresso, steamer station
	meters                     []*Meter
}

// newFineLocking builds it with n machines of each kind (stationOf).
func newFineLocking(steps Steps, drink Drink, n Machines, g guard) *fineLocking {
	s := &fineLocking{steps: steps, drink: drink}
	s.grinder = stationOf("grinder", n.Grinder, g, steps, &s.meters)
	s.espresso = stationOf("espresso", n.Espresso, g, steps, &s.meters)
	if drink.Steams() {
		s.steamer = stationOf("steamer", n.Steamer, g, steps, &s.meters)
	}
	return s
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

func (s *fineLocking) Meters() []*Meter { return s.meters }

func (s *fineLocking) Close() {}
