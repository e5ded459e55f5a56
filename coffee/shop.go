package coffee

// Shop is one way of organizing the coffee shop.
type Shop interface {
	// Brew orders one drink and returns when it is ready. It is safe to call
	// from many goroutines at once, except in ideal (the lesson).
	Brew() error

	// Meters returns the shop's shared resources: its machines and, where
	// the mode has one, the kitchen lock.
	Meters() []*Meter

	// Close stops the shop's own goroutines, if any; no Brew after it.
	Close()
}

// kitchen is locking's machines: one grinder, one espresso machine and
// one steamer.
type kitchen struct {
	steps                      Steps
	drink                      Drink
	grinder, espresso, steamer *Machine
}

func newKitchen(steps Steps, drink Drink) kitchen {
	return kitchen{
		steps:    steps,
		drink:    drink,
		grinder:  newMachine("grinder", steps.Clock),
		espresso: newMachine("espresso", steps.Clock),
		steamer:  newMachine("steamer", steps.Clock),
	}
}

// Meters lists the machines the drink uses.
func (k *kitchen) Meters() []*Meter {
	m := []*Meter{&k.grinder.Meter, &k.espresso.Meter}
	if k.drink.Steams() {
		m = append(m, &k.steamer.Meter)
	}
	return m
}

func (k *kitchen) Close() {}

// Drink is what a customer orders: every drink is ground and pressed; a
// latte also steamed; a latte or an americano ends with combine.
type Drink int

const (
	Latte Drink = iota
	Americano
	Espresso
)

func (d Drink) Steams() bool { return d == Latte }

func (d Drink) Combines() bool { return d != Espresso }
