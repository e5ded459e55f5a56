package compare

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// TestGoBenchmarks compares two go test -bench outputs: throughput and
// every other unit of their lines, each a table of its own, and no
// latency where the benchmarks timed none.
func TestGoBenchmarks(t *testing.T) {
	output := func(ns, bytes int) []results.Point {
		var b strings.Builder
		b.WriteString("pkg: example.com/kv\n")
		for i := range 6 {
			fmt.Fprintf(&b, "BenchmarkGet-2 1000000 %d ns/op %d B/op 1 allocs/op 7 hits/s\n", ns+i, bytes)
		}
		points, err := results.ReadBench(strings.NewReader(b.String()), "x.txt")
		if err != nil {
			t.Fatal(err)
		}
		return points
	}
	c := Compare(output(100, 64), output(50, 32), Options{})
	if len(c.Rows) != 1 {
		t.Fatalf("rows %+v", c.Rows)
	}
	var names []string
	for _, m := range c.Rows[0].Metrics {
		names = append(names, m.Name+" "+m.Better+" "+m.Verdict)
	}
	want := []string{"throughput higher +95.3% better", "B/op lower -50.0% better", "allocs/op lower ~", "hits/s higher ~"}
	if strings.Join(names, "; ") != strings.Join(want, "; ") {
		t.Errorf("metrics %q, want %q", names, want)
	}
	var buf bytes.Buffer
	if err := c.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"throughput, ops/s (higher is better)", "\nB/op (lower is better)", "\nallocs/op (lower is better)"} {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, buf.String())
		}
	}
	if strings.Contains(buf.String(), "latency") {
		t.Errorf("latency compared where none was measured:\n%s", buf.String())
	}
}
