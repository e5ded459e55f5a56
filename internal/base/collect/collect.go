// Package collect holds the few generic slice helpers brewput's packages
// share, so that the results contract does not export them.
package collect

import "slices"

// AppendNew appends those of add that s does not hold yet.
func AppendNew[T comparable](s []T, add ...T) []T {
	for _, a := range add {
		if !slices.Contains(s, a) {
			s = append(s, a)
		}
	}
	return s
}

// GroupBy groups xs by key, leaving out those key refuses: the keys in
// the order their first element comes, and each key's elements in theirs.
func GroupBy[K comparable, T any](xs []T, key func(T) (K, bool)) ([]K, map[K][]T) {
	var keys []K
	by := map[K][]T{}
	for _, x := range xs {
		k, ok := key(x)
		if !ok {
			continue
		}
		if _, seen := by[k]; !seen {
			keys = append(keys, k)
		}
		by[k] = append(by[k], x)
	}
	return keys, by
}

// Subset reports whether every element of a is in b.
func Subset[T comparable](a, b []T) bool {
	return !slices.ContainsFunc(a, func(x T) bool { return !slices.Contains(b, x) })
}

// Mapped is f of each of xs, in order.
func Mapped[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// Count is how many of xs f holds for.
func Count[T any](xs []T, f func(T) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}
