package gobench

import (
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestWhyFromSameStretch: planned again from the runs a file kept, a why
// adds to each operation the very time its first answer said it added,
// whatever the operation's time: not a rounding error away, which shows
// as a nanosecond more or less where half an operation ends in .5 ns.
func TestWhyFromSameStretch(t *testing.T) {
	for ops := int64(1_000_001); ops <= 1_000_400; ops++ {
		lock := results.Machine{Name: "(*Book).Place at book.go:42", Kind: "mutex", Uses: 3 * ops}
		first := results.Point{Kind: results.KindBench, Ops: ops,
			Spec:  results.Spec{Mode: "Book", CPUs: 1, Load: results.Load{Par: 1, Dur: 1037 * time.Millisecond}},
			Bench: &results.Benchmark{Name: "BenchmarkBook", Stretch: results.StretchAsIs, Locks: []results.Machine{lock}, Watched: true}}
		asked := planBench(first, 0.5)
		control := first
		control.Bench = &results.Benchmark{Name: "BenchmarkBook", Stretch: results.StretchControl, StretchNs: float64(asked.Control.Extra),
			Locks: []results.Machine{lock}, Watched: true}
		s, err := WhyFrom([]results.Point{first, control}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Extra != asked.Extra || s.Frac != asked.Frac {
			t.Fatalf("%d ops: planned again %v (%v of one), first %v (%v)", ops, s.Extra, s.Frac, asked.Extra, asked.Frac)
		}
	}
}
