package blueprint_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// TestUnusedResources: resources no step uses are neither built nor
// measured. 10,000 declared and one of them held simulate as that one
// declared alone: the same point, one meter, one resource in the
// structure and in the footprint; an unused read-write lock asks no band
// of its word; Unused names the others in file order.
func TestUnusedResources(t *testing.T) {
	const n = 10_000
	var many strings.Builder
	many.WriteString("name: shop\nresources:\n  cache: {kind: rwmutex}\n")
	for i := range n {
		fmt.Fprintf(&many, "  r%d: 1\n", i)
	}
	const steps = "steps:\n  - {name: work, duration: 1ms, holds: [r1]}\n  - {name: rest, duration: 1ms}\n"
	b := parse(t, many.String()+steps)
	one := parse(t, "name: shop\nresources:\n  r1: 1\n"+steps)

	unused := b.Unused()
	if len(unused) != n || unused[0] != "cache" || unused[1] != "r0" || unused[2] != "r2" || unused[n-1] != "r9999" {
		t.Errorf("Unused: %d names, from %q, want %d: cache, r0, r2 … r9999", len(unused), unused[:min(3, len(unused))], n)
	}
	if used := b.Used(); len(used) != 1 || used[0].Name != "r1" {
		t.Errorf("Used: %+v, want r1 alone", used)
	}
	if b.Words() {
		t.Errorf("Words: true, want false: the read-write lock is unused")
	}
	st, err := b.Structure(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Resources) != 1 {
		t.Errorf("Structure: %d resources, want 1", len(st.Resources))
	}
	if sz := b.Sizes(results.Load{}, 2); sz.Machines != 1 || sz.Meters != 1 {
		t.Errorf("Sizes: %v mutexes and meters, %v meters; want 1 and 1", sz.Machines, sz.Meters)
	}

	var cfgs []model.Config
	for _, bp := range []*blueprint.Blueprint{b, one} {
		c := model.SystemConfig(bp, 2)
		c.Policy.Sched, c.Dur, c.Warmup = "fifo", 200*time.Millisecond, 50*time.Millisecond
		cfgs = append(cfgs, c)
	}
	ps, err := model.Simulate(context.Background(), cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps[0].Shop.Machines) != 1 {
		t.Fatalf("the point reads %d resources, want 1", len(ps[0].Shop.Machines))
	}
	if ps[0].Throughput != ps[1].Throughput || !reflect.DeepEqual(ps[0].Latency, ps[1].Latency) ||
		ps[0].Shop.Machines[0] != ps[1].Shop.Machines[0] {
		t.Errorf("10,000 declared: %v/s, %+v, %+v; the one alone: %v/s, %+v, %+v",
			ps[0].Throughput, ps[0].Latency, ps[0].Shop.Machines[0], ps[1].Throughput, ps[1].Latency, ps[1].Shop.Machines[0])
	}
}
