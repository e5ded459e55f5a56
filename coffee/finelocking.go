package coffee

// fineLocking gives each machine its own lock, held only for that machine's
// step, and combines with no lock at all. Customers now overlap, one on each
// machine, until a machine is busy all the time.
//
// The same structure makes the americano and espresso modes, which skip the
// steamer (and, for espresso, the combine step). A Variant's copies turn a
// kind's one locked machine into a pool of copies.
type fineLocking struct {
	steps                      Steps
	drink                      Drink
	grinder, espresso, steamer station
	meters                     []*Meter
}

func newFineLocking(steps Steps, drink Drink) *fineLocking {
	return newFineLockingWith(steps, drink, Machines{})
}

// newFineLockingWith has copies' number of machines of each kind.
func newFineLockingWith(steps Steps, drink Drink, copies Machines) *fineLocking {
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

// Meters lists the machines the drink uses.
func (s *fineLocking) Meters() []*Meter { return s.meters }

func (s *fineLocking) Close() {}
