package coffee

import (
	"cmp"
	"fmt"
	"time"
)

// Machines is a number for each kind of machine: how many copies, or the
// buffer of the channel into a pipeline's stage. 0 keeps the mode's own.
type Machines struct {
	Grinder  int `json:"grinder,omitempty"`
	Espresso int `json:"espresso,omitempty"`
	Steamer  int `json:"steamer,omitempty"`
}

// Or is m with def for each kind it leaves 0.
func (m Machines) Or(def int) Machines {
	return Machines{Grinder: or(m.Grinder, def), Espresso: or(m.Espresso, def), Steamer: or(m.Steamer, def)}
}

func (m Machines) IsZero() bool { return m == Machines{} }

// Kind returns the number for one kind of machine, by its name
// ("grinder", "espresso" or "steamer"); 0 for any other name.
func (m Machines) Kind(kind string) int {
	if n := m.of(kind); n != nil {
		return *n
	}
	return 0
}

// With returns m with kind's number set to n; m itself for an unknown kind.
func (m Machines) With(kind string, n int) Machines {
	if k := m.of(kind); k != nil {
		*k = n
	}
	return m
}

// of points at the number for the kind of machine named kind; nil for any
// other name.
func (m *Machines) of(kind string) *int {
	switch kind {
	case "grinder":
		return &m.Grinder
	case "espresso":
		return &m.Espresso
	case "steamer":
		return &m.Steamer
	}
	return nil
}

func or(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}

// Variant is a small change to a mode's structure, as a causal profile
// relieves it. The zero Variant is the mode as it is.
type Variant struct {
	// Copies are the machines of each kind (a pool, where one was
	// locked), or a pipeline stage's workers on every line.
	Copies Machines `json:"copies,omitzero"`
	// Buffers are the room in the channel into each pipeline stage.
	Buffers Machines `json:"buffers,omitzero"`
	// Split, in locking, lets the customer combine outside the kitchen lock.
	Split bool `json:"split,omitempty"`
}

func (v Variant) IsZero() bool { return v == Variant{} }

// Check reports whether v applies to mode m: copies where it holds
// machines, buffers in a pipeline, split in locking, and only machines its
// drink uses.
func (v Variant) Check(m Mode) error {
	for _, x := range []struct {
		what string
		n    Machines
	}{{"copies", v.Copies}, {"buffers", v.Buffers}} {
		if x.n.Grinder < 0 || x.n.Espresso < 0 || x.n.Steamer < 0 {
			return fmt.Errorf("%s %+v: want 0 (the mode's) or more for each kind", x.what, x.n)
		}
	}
	f := FamilyOf(m)
	switch {
	case !v.Copies.IsZero() && f.Shape.Holds != MachineLocks && f.Shape.Holds != Stages:
		return fmt.Errorf("copies %+v: %s holds no machine to copy", v.Copies, m)
	case !v.Buffers.IsZero() && !f.Pipeline():
		return fmt.Errorf("buffers %+v: %s is no pipeline", v.Buffers, m)
	case v.Split && f.Shape.Holds != KitchenLock:
		return fmt.Errorf("split: only locking's kitchen lock can be split, not %s's", m)
	case (v.Copies.Steamer > 0 || v.Buffers.Steamer > 0) && !f.Drink.Steams():
		return fmt.Errorf("%s has no steamer", m)
	}
	return nil
}

// OpenVariant builds the shop for mode m changed by v, starting its
// goroutines if it has any; the caller must Close it.
func OpenVariant(m Mode, steps Steps, v Variant) (Shop, error) {
	if err := cmp.Or(m.Validate(), steps.Validate(), v.Check(m)); err != nil {
		return nil, err
	}
	return m.build(steps, v), nil
}

// station is where a customer uses one kind of machine: one locked
// machine, a pool, or (ideal, locking) a machine nothing guards; use
// returns how long the step really ran (work).
type station interface {
	use(d time.Duration) time.Duration
}

// guard is how a station keeps its machines to one customer at a time.
type guard int

const (
	locked guard = iota
	pooled
	unguarded // ideal: not at all, which the race detector reports; locking: by its door
)

// stationOf makes the station of n machines of kind, adding their meters
// to meters: one machine, or (more, or pooled) a pool.
func stationOf(kind string, n int, g guard, steps Steps, meters *[]*Meter) station {
	if n > 1 || g == pooled {
		return stock(kind, n, steps, meters)
	}
	m := newMachine(kind, steps.Clock)
	*meters = append(*meters, &m.Meter)
	if g == unguarded {
		return m
	}
	return &lockedMachine{Machine: m}
}
