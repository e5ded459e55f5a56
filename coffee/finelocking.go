package coffee

// fineLocking gives each machine its own lock, held only for that machine's
// step, and combines with no lock at all: customers overlap, one on each
// machine. It also makes americano, espresso and parsteam's base, and,
// with pools of N machines in place of locks, multi-N: a buffered channel
// of machines, from which a customer takes one and puts it back.
type fineLocking struct {
	steps                      Steps
	drink                      Drink
	grinder, espresso, steamer station
	meters                     []*Meter
}

// newFineLocking builds it with n machines of each kind: a locked machine
// where n is 1 and not pooled, else a pool.
func newFineLocking(steps Steps, drink Drink, n Machines, pooled bool) *fineLocking {
	s := &fineLocking{steps: steps, drink: drink}
	s.grinder = stationOf("grinder", n.Grinder, pooled, steps, &s.meters)
	s.espresso = stationOf("espresso", n.Espresso, pooled, steps, &s.meters)
	if drink.Steams() {
		s.steamer = stationOf("steamer", n.Steamer, pooled, steps, &s.meters)
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
