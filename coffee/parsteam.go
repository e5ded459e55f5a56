package coffee

// parSteam is finelocking with the milk steamed in a goroutine of its own,
// in parallel with grinding and pressing. A single latte gets faster; the
// busiest machine is as busy as before.
type parSteam struct {
	*fineLocking
}

func (s *parSteam) Brew() error {
	milk := make(chan struct{})
	go func() {
		s.steamer.use(s.steps.steam())
		milk <- struct{}{}
	}()
	s.grinder.use(s.steps.grind())
	s.espresso.use(s.steps.press())
	<-milk
	s.steps.combine()
	return nil
}
