package lab

import (
	"fmt"
	"slices"
	"strings"
)

// The checks a Validate is made of: each nil where the value is fine,
// else the error that starts with the flag's name. cmp.Or evaluates every
// argument: a check that cannot run on what an earlier one refuses comes
// after a return.

// Within wants v, the value of flag, from lo to hi ("FLAG V: want LO to HI UNIT").
func Within(flag string, v, lo, hi int, unit string) error {
	return Refuse(v < lo || v > hi, "%s %d: want %d to %d %s", flag, v, lo, hi, unit)
}

// AtLeast wants v lo or more ("FLAG V: want at least LO WHAT").
func AtLeast(flag string, v, lo int, what string) error {
	return Refuse(v < lo, "%s %d: want at least %s", flag, v, strings.TrimSpace(fmt.Sprint(lo, " ", what)))
}

// AtMost wants v hi or less ("FLAG V: want at most HI WHAT").
func AtMost(flag string, v, hi int, what string) error {
	return Refuse(v > hi, "%s %d: want at most %s", flag, v, strings.TrimSpace(fmt.Sprint(hi, " ", what)))
}

// EachWithin is Within for each value of a list: the first out of range.
func EachWithin(flag string, vs []int, lo, hi int, unit string) error {
	for _, v := range vs {
		if err := Within(flag, v, lo, hi, unit); err != nil {
			return err
		}
	}
	return nil
}

// Buffers wants each channel buffer size from 0 (unbuffered) to most.
func Buffers(flag string, sizes []int, most int, what, unit string) error {
	for _, s := range sizes {
		if s < 0 || s > most {
			return fmt.Errorf("%s %d: want %s of 0 (unbuffered) to %d %s", flag, s, what, most, unit)
		}
	}
	return nil
}

// NotEmpty wants a list of at least one value ("FLAG: want at least one WHAT").
func NotEmpty[T any](flag string, list []T, what string) error {
	return Refuse(len(list) == 0, "%s: want at least one %s", flag, what)
}

// Refuse is any other rule: the error of format and args where bad holds.
func Refuse(bad bool, format string, args ...any) error {
	if bad {
		return fmt.Errorf(format, args...)
	}
	return nil
}

// Choices wants each name of list among known, none given twice.
func Choices[S ~string](flag string, list, known []S, want string) error {
	for i, v := range list {
		if !slices.Contains(known, v) {
			return fmt.Errorf("%s %q: %s", flag, v, want)
		}
		if slices.Contains(list[:i], v) {
			return fmt.Errorf("%s %q: given twice", flag, v)
		}
	}
	return nil
}
