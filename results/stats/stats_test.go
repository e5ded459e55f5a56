package stats_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/results/stats"
)

// Six runs bound a median at 95 %; five do not, and say why.
func TestValuesInterval(t *testing.T) {
	if n := stats.RunsForInterval(); n != 6 {
		t.Fatalf("RunsForInterval = %d, want 6 (benchstat's at alpha 0.05 and 95 %%)", n)
	}
	six := stats.Values([]float64{12, 10, 11, 13, 9, 14})
	if six.N != 6 || six.Median != 11.5 || math.IsInf(six.Lo, 0) || math.IsInf(six.Hi, 0) || six.Lo > six.Median || six.Hi < six.Median {
		t.Errorf("six values: %+v, want median 11.5 inside a finite interval", six)
	}
	five := stats.Values([]float64{12, 10, 11, 13, 9})
	if !(math.IsInf(five.Lo, -1) || math.IsInf(five.Hi, 1)) || len(five.Warnings) == 0 {
		t.Errorf("five values: %+v, want an interval open on a side and a warning", five)
	}
}

// Values leaves its argument as it was: a caller's runs stay in their order.
func TestValuesKeepsInput(t *testing.T) {
	in := []float64{3, 1, 2}
	stats.Values(in)
	if in[0] != 3 || in[1] != 1 || in[2] != 2 {
		t.Errorf("Values sorted its input: %v", in)
	}
}

// More runs on a side can tell a smaller alpha; MinP falls with n.
func TestRunsFor(t *testing.T) {
	if a, b := stats.RunsFor(0.05), stats.RunsFor(0.001); b <= a {
		t.Errorf("RunsFor(0.001) = %d, RunsFor(0.05) = %d: a stricter alpha needs more runs", b, a)
	}
	if p5, p6 := stats.MinP(5, 5, 0.05), stats.MinP(6, 6, 0.05); p6 >= p5 {
		t.Errorf("MinP(6, 6) = %v not below MinP(5, 5) = %v", p6, p5)
	}
}

// JSON cannot hold an infinite bound: it is null, and the warning reads
// as written where the encoder escapes no HTML (as compare's WriteJSON).
func TestSummaryJSON(t *testing.T) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(stats.Values([]float64{1, 2})); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.Contains(s, `"lo":null`) || !strings.Contains(s, `"hi":null`) || !strings.Contains(s, ">=") {
		t.Errorf("JSON %s: want null bounds and an unescaped warning", s)
	}
}

func ExampleValues() {
	s := stats.Values([]float64{101, 98, 103, 99, 100, 102})
	fmt.Printf("median %.1f, 95 %% interval [%.0f, %.0f] of %d runs\n", s.Median, s.Lo, s.Hi, s.N)
	// Output: median 100.5, 95 % interval [98, 103] of 6 runs
}
