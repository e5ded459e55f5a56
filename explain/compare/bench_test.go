package compare

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestGoBenchmarks compares two go test -bench outputs as benchstat
// does: every unit of their lines, time per op first, each a table of its
// own in its tidied unit (sec/op) with SI prefixes, a row named as go
// test names the benchmark, and no shop's columns nor latency where the
// benchmarks timed none.
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
		names = append(names, m.Name+" "+m.Better+" "+text.MetricVerdict(m))
	}
	want := []string{"ns/op lower -48.8% better", "B/op lower -50.0% better", "allocs/op lower ~", "hits/s higher ~"}
	if strings.Join(names, "; ") != strings.Join(want, "; ") {
		t.Errorf("metrics %q, want %q", names, want)
	}
	var buf bytes.Buffer
	if err := text.WriteComparison(&buf, c); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"sec/op (lower is better)", "Get-2      102.5n ± 2%  52.50n ± 5%  -48.8% (p=0.002 n=6)",
		"\nB/op (lower is better)", "\nallocs/op (lower is better)", "1.000 ± 0%  ~ (p=1.000 n=6)"} {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, buf.String())
		}
	}
	for _, never := range []string{"latency", "mode", "par", "steps", "grind", "throughput", "ops/s"} {
		if strings.Contains(buf.String(), never) {
			t.Errorf("table has %q:\n%s", never, buf.String())
		}
	}
}
