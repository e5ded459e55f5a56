package bench_test

import (
	"sync"
	"testing"

	"github.com/brewput/brewput/measure/bench"
)

// A benchmark of a map behind one mutex, by every P at once, with the
// latency of each call reported beside ns/op.
func ExampleParallel() {
	var mu sync.Mutex
	m := map[int]int{}
	benchmark := func(b *testing.B) {
		bench.Parallel(b, func() {
			mu.Lock()
			m[1]++
			mu.Unlock()
		})
	}
	_ = benchmark // as func BenchmarkMap(b *testing.B) in a _test.go file
}
