package limits_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
)

// TestUnusedNotRelieved: resources no step uses are not relieved. The
// cafe with 10,000 more declared takes as many simulations to profile as
// the cafe, under either policy, and its profile and advice are the
// cafe's: "one more of every resource" counts the three it uses.
func TestUnusedNotRelieved(t *testing.T) {
	data, err := os.ReadFile("../../examples/cafe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var spare strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&spare, "  spare%d: 1\n", i)
	}
	more := strings.Replace(string(data), "\nresources:\n", "\nresources:\n"+spare.String(), 1)
	var cfgs []model.Config
	for _, yaml := range []string{string(data), more} {
		b, err := blueprint.Parse("cafe.yaml", []byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, model.SystemConfig(b, 4))
	}
	if n := len(cfgs[1].System.Unused()); n != 10_000 {
		t.Fatalf("%d resources unused, want 10000", n)
	}
	for _, sched := range []string{"go", "fifo"} {
		cfgs[0].Policy.Sched, cfgs[1].Policy.Sched = sched, sched
		if cafe, more := limits.Simulations(cfgs[0], limits.EveryRelief), limits.Simulations(cfgs[1], limits.EveryRelief); more != cafe {
			t.Errorf("%s: %d simulations to profile with 10,000 unused resources, %d without", sched, more, cafe)
		}
	}
	var advice []*limits.Advice
	for _, cfg := range cfgs {
		a, err := limits.Advise(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		advice = append(advice, a)
	}
	if !reflect.DeepEqual(advice[0].Options, advice[1].Options) || !reflect.DeepEqual(advice[0].Now.Bottleneck, advice[1].Now.Bottleneck) {
		t.Errorf("the cafe's advice with 10,000 unused resources differs from the cafe's:\n%+v\n%+v", advice[1].Options, advice[0].Options)
	}
}
