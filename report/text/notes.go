package text

import (
	"fmt"
	"math"
	"strings"

	"github.com/brewput/brewput/results"
)

// trustNotes say p's Trust in words, for a table's notes.
func trustNotes(p results.Point) []string {
	var n []string
	b := p.Bounds
	if b != nil && p.Steady != nil && !*p.Steady {
		if b.Little != 0 && math.Abs(b.Little-1) > results.LittleTolerance {
			n = append(n, fmt.Sprintf("not steady: Little's law %.3f", b.Little))
		}
		if p.Rate > 0 && b.Arrived > 0 && !results.QueueSteady(b.Growth, b.Arrived) {
			n = append(n, fmt.Sprintf("not steady: the queue grew by %d over the window (%.0f %% of its arrivals); its latencies depend on --dur", b.Growth, 100*float64(b.Growth)/float64(b.Arrived)))
		}
	}
	for _, a := range p.Above {
		n = append(n, a.Text)
	}
	for _, c := range p.Caveats {
		n = append(n, c.Text)
	}
	return n
}

// Notes says what a reader must know about a point beside its numbers:
// the talk's harness, what its Trust says.
func Notes(p results.Point) string {
	var n []string
	if p.Harness == "talk" {
		n = append(n, "talk harness")
	}
	return strings.Join(append(n, trustNotes(p)...), "; ")
}
