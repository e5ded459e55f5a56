package results

import (
	"strings"
)

// Benchmark is a Go benchmark's point's part: a line of go test -bench output.
type Benchmark struct {
	// Name is without the -N suffix, "BenchmarkCache/mutex/read".
	Name  string `json:"name"`
	Pkg   string `json:"pkg,omitempty"`
	Iters int64  `json:"iters"`
	// Values are every measurement on the line, in its order and units.
	Values []BenchValue `json:"values"`
	// Locks are the lock sites its run took, where brewput watched them
	// (bench --locks): a site's locks are one group, "(*Book).Place at
	// book.go:42#1" …, as a study's sharded meters are.
	Locks []Machine `json:"locks,omitempty"`
	// Watched says its locks were watched: no Locks then means it took
	// none while its timer ran, not that nobody looked.
	Watched bool `json:"locks_watched,omitempty"`
}

// BenchValue is one measurement of a benchmark line.
type BenchValue struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// Value returns the benchmark's value in unit ("ns/op", "B/op") and
// whether it has one.
func (b *Benchmark) Value(unit string) (float64, bool) {
	if b == nil {
		return 0, false
	}
	for _, v := range b.Values {
		if v.Unit == unit {
			return v.Value, true
		}
	}
	return 0, false
}

// BenchMode is a benchmark's point's mode: its name without "Benchmark".
func BenchMode(name string) string {
	if m := strings.TrimPrefix(name, "Benchmark"); m != "" {
		return m
	}
	return name
}
