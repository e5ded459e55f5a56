package coffee

// fineLocking gives each machine its own lock, held only for that machine's
// step, and combines with no lock at all: customers overlap, one on each
// machine. It also makes americano, espresso and parsteam's base, and,
// with pools (copies) in place of locks, multi-N.
type fineLocking struct {
	steps                      Steps
	drink                      Drink
	grinder, espresso, steamer station
	meters                     []*Meter
}

func newFineLocking(steps Steps, drink Drink, copies Machines) *fineLocking {
	s := &fineLocking{steps: steps, drink: drink}
	s.grinder = stationOf("grinder", copies.Grinder, steps, &s.meters)
	s.espresso = stationOf("espresso", copies.Espresso, steps, &s.meters)
	if drink.Steams() {
		s.steamer = stationOf("steamer", copies.Steamer, steps, &s.meters)
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
