package results

import (
	"strings"
)

// Benchmark is a Go benchmark's point's part: a line of go test -bench
// output, whose values (ns/op, B/op, its own) are the point's metrics.
type Benchmark struct {
	// Name is without the -N suffix, "BenchmarkCache/mutex/read".
	Name  string
	Pkg   string
	Iters int64
	// Locks are the lock sites its run took, where brewput watched them
	// (bench --locks): a site's locks are one group, "(*Book).Place at
	// book.go:42#1" …, as a study's sharded meters are.
	Locks []Machine
	// Watched says its locks were watched: no Locks then means it took
	// none while its timer ran, not that nobody looked.
	Watched bool
}

// BenchMode is a benchmark's point's mode: its name without "Benchmark".
func BenchMode(name string) string {
	if m := strings.TrimPrefix(name, "Benchmark"); m != "" {
		return m
	}
	return name
}
