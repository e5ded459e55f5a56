//go:build !linux

package atomicfile

// exchange swaps the names a and b, in two renames.
func exchange(a, b string) error { return exchangeByRenames(a, b) }
