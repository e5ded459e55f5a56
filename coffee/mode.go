package coffee

import (
	"fmt"
	"strconv"
	"strings"
)

// Mode names one way of organizing the shop, such as "finelocking" or
// "multi-2": a family and, for the families that take one, a number.
type Mode struct {
	Family string
	N      int // copies of each machine, or the pipeline's channel buffer
}

// String returns the mode's name as ParseMode reads it.
func (m Mode) String() string {
	if familyOf(m.Family).param == "" {
		return m.Family
	}
	return m.Family + "-" + strconv.Itoa(m.N)
}

// MarshalText writes the mode's name, for JSON and flags.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a mode's name as ParseMode does.
func (m *Mode) UnmarshalText(text []byte) error {
	mode, err := ParseMode(string(text))
	if err != nil {
		return err
	}
	*m = mode
	return nil
}

// Validate checks a mode made other than by ParseMode: its family exists
// and its N is one the family accepts.
func (m Mode) Validate() error {
	f := familyOf(m.Family)
	switch {
	case f.Name == "":
		return fmt.Errorf("unknown mode %q; accepted: %s", m.Family, acceptedModes())
	case f.param == "" && m.N != 0:
		return fmt.Errorf("mode %s-%d: %s takes no number; write %s", m.Family, m.N, f.Name, f.Name)
	case f.param != "" && m.N < f.minN:
		return fmt.Errorf("mode %s: N (%s) must be a whole number ≥ %d, e.g. %s-%d", m, f.param, f.minN, f.Name, max(f.minN, 2))
	}
	return nil
}

// MustParseMode is ParseMode for a name known to be good; it panics on a
// bad one.
func MustParseMode(name string) Mode {
	m, err := ParseMode(name)
	if err != nil {
		panic(err)
	}
	return m
}

// Param says what N means for the family's modes, or "" if it takes none.
func (f Family) Param() string { return f.param }

// Races reports whether the mode has a data race on purpose.
func (m Mode) Races() bool { return m.Family == "ideal" }

// Family describes one family of modes for listings and help.
type Family struct {
	Name    string // e.g. "multi"
	Summary string // one line

	param string // what N means, "" if the family takes none
	minN  int
	build func(steps Steps, n int, v Variant) Shop // v has passed Check
}

// Families lists every family of modes, in the order of the talk.
func Families() []Family {
	return []Family{
		{Name: "ideal", Summary: "no synchronization at all: perfect scaling, and a data race (the lesson)",
			build: func(s Steps, _ int, _ Variant) Shop { return &ideal{kitchen: newKitchen(s, Latte)} }},
		{Name: "locking", Summary: "one lock around the whole kitchen for the whole latte",
			build: func(s Steps, _ int, v Variant) Shop { return newLocking(s, v.Split) }},
		{Name: "finelocking", Summary: "one lock per machine, held only during that machine's step",
			build: func(s Steps, _ int, v Variant) Shop { return newFineLocking(s, Latte, v.Copies) }},
		{Name: "parsteam", Summary: "finelocking, with the milk steamed in its own goroutine in parallel with grind and press",
			build: func(s Steps, _ int, v Variant) Shop { return &parSteam{newFineLocking(s, Latte, v.Copies)} }},
		{Name: "americano", Summary: "finelocking without the steam step (combine still runs)",
			build: func(s Steps, _ int, v Variant) Shop { return newFineLocking(s, Americano, v.Copies) }},
		{Name: "espresso", Summary: "finelocking with grind and press only",
			build: func(s Steps, _ int, v Variant) Shop { return newFineLocking(s, Espresso, v.Copies) }},
		{Name: "multi", param: "copies of each machine", minN: 1,
			Summary: "N copies of each machine, handed out through a buffered channel of machines",
			build:   func(s Steps, n int, v Variant) Shop { return newMulti(s, n, v.Copies) }},
		{Name: "linearpipe", param: "channel buffer", minN: 0,
			Summary: "a goroutine per machine connected by channels with buffer N; the customer hands in an order, waits, then combines",
			build:   func(s Steps, n int, v Variant) Shop { return newPipeline(s, Latte, n, 1, v) }},
		{Name: "splitpipe", param: "channel buffer", minN: 0,
			Summary: "a pipeline where steaming is a branch parallel to grind and press, channels with buffer N",
			build:   func(s Steps, n int, v Variant) Shop { return newSplitPipe(s, n, v) }},
		{Name: "multipipe", param: "copies of the pipeline", minN: 1,
			Summary: "N copies of linearpipe-1 sharing one order queue",
			build:   func(s Steps, n int, v Variant) Shop { return newPipeline(s, Latte, 1, n, v) }},
		{Name: "americanopipe", param: "channel buffer", minN: 0,
			Summary: "the pipeline form of americano: grind and press stages, channel buffer N, the customer combines",
			build:   func(s Steps, n int, v Variant) Shop { return newPipeline(s, Americano, n, 1, v) }},
		{Name: "espressopipe", param: "channel buffer", minN: 0,
			Summary: "the pipeline form of espresso: grind and press stages, channel buffer N",
			build:   func(s Steps, n int, v Variant) Shop { return newPipeline(s, Espresso, n, 1, v) }},
		{Name: "noop", Summary: "does nothing: measures the harness itself",
			build: func(Steps, int, Variant) Shop { return noop{} }},
	}
}

// familyOf finds a family by name; the zero Family if there is none.
func familyOf(name string) Family {
	for _, f := range Families() {
		if f.Name == name {
			return f
		}
	}
	return Family{}
}

// ParseMode reads a mode name such as "locking", "multi-2" or
// "linearpipe-0". Its error names the bad input and what is accepted.
func ParseMode(name string) (Mode, error) {
	family, num, hasNum := strings.Cut(name, "-")
	f := familyOf(family)
	switch {
	case f.Name == "":
		return Mode{}, fmt.Errorf("unknown mode %q; accepted: %s", name, acceptedModes())
	case f.param == "" && hasNum:
		return Mode{}, fmt.Errorf("mode %q: %s takes no number; write %s", name, f.Name, f.Name)
	case f.param == "":
		return Mode{Family: f.Name}, nil
	}
	n, err := strconv.Atoi(num)
	if !hasNum || err != nil || n < f.minN || strconv.Itoa(n) != num {
		return Mode{}, fmt.Errorf("mode %q: N (%s) must be a whole number ≥ %d, e.g. %s-%d", name, f.param, f.minN, f.Name, max(f.minN, 2))
	}
	return Mode{Family: f.Name, N: n}, nil
}

func acceptedModes() string {
	var names []string
	for _, f := range Families() {
		names = append(names, f.Pattern())
	}
	return strings.Join(names, ", ")
}

// Pattern is how the family's modes are written, e.g. "multi-N".
func (f Family) Pattern() string {
	if f.param == "" {
		return f.Name
	}
	return f.Name + "-N"
}

// Open builds the shop for mode m, starting its goroutines if it has any;
// the caller must Close it.
func Open(m Mode, steps Steps) (Shop, error) { return OpenVariant(m, steps, Variant{}) }

// Unit names what the mode makes per second: lattes, drinks (americano and
// espresso) or, for noop, operations.
func (m Mode) Unit() string {
	switch m.Family {
	case "noop":
		return "ops/s"
	case "americano", "espresso", "americanopipe", "espressopipe":
		return "drinks/s"
	}
	return "lattes/s"
}
