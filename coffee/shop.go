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
