package coffee

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
)

// Mode names one way of organizing the shop, such as "finelocking" or
// "multi-2": a family and, for the families that take one, a number.
type Mode struct {
	Family string
	N      int // what its family's Shape.N counts
}

// String returns the mode's name as ParseMode reads it.
func (m Mode) String() string {
	if FamilyOf(m).Param() == "" {
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
	f := FamilyOf(m)
	switch {
	case f.Name == "":
		return fmt.Errorf("unknown mode %q; accepted: %s", m.Family, acceptedModes())
	case f.Param() == "" && m.N != 0:
		return fmt.Errorf("mode %s-%d: %s takes no number; write %s", m.Family, m.N, f.Name, f.Name)
	case f.Param() != "" && m.N < f.minN():
		return fmt.Errorf("mode %s: N (%s) must be a whole number ≥ %d, e.g. %s-%d", m, f.Param(), f.minN(), f.Name, max(f.minN(), 2))
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

// Races reports whether the mode has a data race on purpose: it holds
// nothing while its steps share the machines.
func (m Mode) Races() bool { return FamilyOf(m).Shape.Holds == Nothing }

// ParseMode reads a mode name such as "locking", "multi-2" or
// "linearpipe-0". Its error names the bad input and what is accepted.
func ParseMode(name string) (Mode, error) {
	family, num, hasNum := strings.Cut(name, "-")
	f := FamilyOf(Mode{Family: family})
	switch {
	case f.Name == "":
		return Mode{}, fmt.Errorf("unknown mode %q; accepted: %s", name, acceptedModes())
	case f.Param() == "" && hasNum:
		return Mode{}, fmt.Errorf("mode %q: %s takes no number; write %s", name, f.Name, f.Name)
	case f.Param() == "":
		return Mode{Family: f.Name}, nil
	}
	n, err := strconv.Atoi(num)
	if !hasNum || err != nil || n < f.minN() || strconv.Itoa(n) != num {
		return Mode{}, fmt.Errorf("mode %q: N (%s) must be a whole number ≥ %d, e.g. %s-%d", name, f.Param(), f.minN(), f.Name, max(f.minN(), 2))
	}
	return Mode{Family: f.Name, N: n}, nil
}

func acceptedModes() string { return strings.Join(collect.Mapped(Families(), Family.Pattern), ", ") }

// Pattern is how the family's modes are written, e.g. "multi-N".
func (f Family) Pattern() string {
	if f.Param() == "" {
		return f.Name
	}
	return f.Name + "-N"
}

// Unit names what the mode makes per second: lattes, drinks (americano and
// espresso) or, for noop, operations.
func (m Mode) Unit() string {
	f := FamilyOf(m)
	switch {
	case f.Shape.Holds == NoShop:
		return "ops/s"
	case f.Drink != Latte:
		return "drinks/s"
	}
	return "lattes/s"
}
