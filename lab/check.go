package lab

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
)

// The checks below are what a lab's Config.Validate is made of. Each is
// nil where the value is fine, and otherwise the error that starts with
// the field's flag name ("reps 0: want 1 to 100 runs per point"), which
// FlagError turns into a usage error. Validate lists its checks in order
// and returns the first error, with cmp.Or; as cmp.Or's arguments are
// all evaluated, a check that cannot run on what an earlier one refuses
// (the largest of an empty list) comes after a return of its own.

// Within checks an integer field: v, the value of flag, must be lo to hi
// ("FLAG V: want LO to HI UNIT").
func Within(flag string, v, lo, hi int, unit string) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d: want %d to %d %s", flag, v, lo, hi, unit)
	}
	return nil
}

// AtLeast checks an integer field's lower bound: v, the value of flag,
// must be lo or more ("FLAG V: want at least LO WHAT", or "FLAG V: want
// at least LO" where what is empty).
func AtLeast(flag string, v, lo int, what string) error {
	if v < lo {
		return fmt.Errorf("%s %d: want at least %s", flag, v, bound(lo, what))
	}
	return nil
}

// AtMost checks an integer field's upper bound: v, the value of flag,
// must be hi or less ("FLAG V: want at most HI WHAT", or "FLAG V: want at
// most HI" where what is empty).
func AtMost(flag string, v, hi int, what string) error {
	if v > hi {
		return fmt.Errorf("%s %d: want at most %s", flag, v, bound(hi, what))
	}
	return nil
}

// bound is a bound of AtLeast's or AtMost's: n, and what it counts if
// anything ("1 integer", "1000").
func bound(n int, what string) string {
	if what == "" {
		return strconv.Itoa(n)
	}
	return fmt.Sprintf("%d %s", n, what)
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

// Buffers checks a list of channel buffer sizes: each must be 0, an
// unbuffered channel, to most ("FLAG V: want WHAT of 0 (unbuffered) to
// MOST UNIT").
func Buffers(flag string, sizes []int, most int, what, unit string) error {
	for _, s := range sizes {
		if s < 0 || s > most {
			return fmt.Errorf("%s %d: want %s of 0 (unbuffered) to %d %s", flag, s, what, most, unit)
		}
	}
	return nil
}

// NotEmpty checks a list field: it must hold at least one value ("FLAG:
// want at least one WHAT").
func NotEmpty[T any](flag string, list []T, what string) error {
	if len(list) == 0 {
		return fmt.Errorf("%s: want at least one %s", flag, what)
	}
	return nil
}

// Refuse is the check of any other rule: the error of format and args
// where bad holds, as Validate would write it ("malformed %d: more than
// the %d messages of a run").
func Refuse(bad bool, format string, args ...any) error {
	if bad {
		return fmt.Errorf(format, args...)
	}
	return nil
}

// PathErr is the error of a file or folder a flag names, without the
// operation and path of an *fs.PathError (an *os.PathError), which the
// message names already: "file x.txt: no such file or directory".
func PathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Choices checks a list of names: each must be one of known ("FLAG
// "NAME": WANT" where it is not) and none given twice.
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
