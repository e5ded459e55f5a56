package coffee

// ideal makes every latte with no synchronization at all: any number of
// customers use the same machines at once. It is what perfect parallelism
// would look like, and it is wrong: the race detector reports it.
type ideal struct {
	kitchen
}

func (s *ideal) Brew() error {
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
