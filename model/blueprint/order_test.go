package blueprint

import (
	"fmt"
	"strings"
	"testing"
)

// TestOrderEdgesGrowWithHolds: a step holding n resources adds n-1 edges
// to the lock-order graph, each from the one taken before, not one from
// every resource held (n²/2: 4.5 million for 3000, a gigabyte of map and
// seconds before any estimate could refuse the run).
func TestOrderEdgesGrowWithHolds(t *testing.T) {
	const n = 3000
	var yaml strings.Builder
	yaml.WriteString("resources:\n")
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("r%d", i)
		fmt.Fprintf(&yaml, "  %s: 1\n", names[i])
	}
	fmt.Fprintf(&yaml, "steps:\n  - {name: all, duration: 1ms, holds: [%s]}\n", strings.Join(names, ", "))
	b, err := Parse("all.yaml", []byte(yaml.String()))
	if err != nil {
		t.Fatal(err)
	}
	g := &orderGraph{next: map[int][]int{}, edges: map[[2]int]edge{}}
	if err := (&parser{file: b.File, b: b}).walkOrder(g, b.flow, nil); err != nil {
		t.Fatal(err)
	}
	if len(g.edges) != n-1 {
		t.Errorf("%d edges for a step holding %d resources, want %d", len(g.edges), n, n-1)
	}
}
