package driver

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/playground"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestEveryFamilyEverywhere walks every family coffee declares through
// every part of brewput that treats modes apart, and fails on a family one
// of them does not know: the real shop builds it and brews; the model
// builds it and meters what the real shop meters; its causal profile
// relieves each resource the shop holds and advise simulates each of its
// neighbours; its usual modes have distinct colours and are offered by the
// playground, which lists the family; brewput list has its row, and
// docs/modes.md's table names it. (What the model's footprint and
// advise's costs count, the blueprint's Parts, is walked by model's
// TestEveryModeMirrorsCoffee and limits' TestEveryFamilyBuilt.)
func TestEveryFamilyEverywhere(t *testing.T) {
	_, list, _ := brewput(context.Background(), t, noChild(), "list")
	modesDoc, err := os.ReadFile("../../../../docs/modes.md")
	if err != nil {
		t.Fatal(err)
	}
	offered := playground.ModesOffered()
	colours := map[string]string{} // a fixed colour's hex → its mode
	for _, f := range coffee.Families() {
		name := f.Name
		if f.Param() != "" {
			name += "-2"
		}
		mode := coffee.MustParseMode(name)
		t.Run(name, func(t *testing.T) {
			shop, err := coffee.OpenVariant(mode, coffee.DefaultSteps(), coffee.Variant{})
			if err != nil {
				t.Fatal(err)
			}
			var meters []string
			for _, m := range shop.Meters() {
				meters = append(meters, m.Name())
			}
			err = shop.Brew()
			shop.Close()
			if err != nil {
				t.Fatal(err)
			}

			cfg := model.DefaultConfig(4)
			cfg.Mode, cfg.Policy.Sched, cfg.Warmup, cfg.Dur = name, "fifo", 10*time.Millisecond, 100*time.Millisecond
			if f.Shape.Holds == coffee.NoShop {
				cfg.Rate = 1000 // nothing in no time: only an open loop advances
			}
			points, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
			if err != nil {
				t.Fatalf("the model: %v", err)
			}
			var modelled []string
			for _, m := range points[0].Machines() {
				modelled = append(modelled, m.Name)
			}
			if points[0].Throughput == 0 || !slices.Equal(modelled, meters) {
				t.Errorf("the model makes %.0f a second and meters %v; the shop meters %v", points[0].Throughput, modelled, meters)
			}
			if f.Shape.Holds != coffee.NoShop { // noop has nothing to advise on
				advised(t, f, cfg, points[0].Machines())
			}

			for _, u := range f.Usual {
				usual := coffee.Mode{Family: f.Name, N: u.N}.String()
				if !slices.Contains(offered.Offered, usual) {
					t.Errorf("the playground does not offer %s", usual)
				}
				if i, ok := (coffee.Declared{}).Colour(usual); ok {
					c := palette.Cycle()[i]
					if other, taken := colours[palette.Hex(c)]; taken {
						t.Errorf("%s has %s's colour %s", usual, other, palette.Hex(c))
					}
					colours[palette.Hex(c)] = usual
				}
			}
			listed := slices.ContainsFunc(offered.Families, func(p playground.Family) bool { return p.Name == f.Name })
			if listed == (f.Shape.Holds == coffee.NoShop) {
				t.Errorf("the playground lists %s: %v; want it where the family has a shop", f.Name, listed)
			}
			if !strings.Contains(list, "\n"+f.Pattern()+" ") && !strings.HasPrefix(list, f.Pattern()+" ") {
				t.Errorf("brewput list has no row for %s:\n%s", f.Pattern(), list)
			}
			if !strings.Contains(string(modesDoc), "| `"+f.Pattern()+"`") && !strings.Contains(string(modesDoc), ", `"+f.Pattern()+"`") {
				t.Errorf("docs/modes.md's table of modes does not name %s", f.Pattern())
			}
		})
	}
}

// advised checks cfg's advice: its causal profile relieves each resource
// the model's shop declares it holds for its bounds, and each machine its
// customers waited for in the model (which its code, not the declaration,
// decides); each neighbour the family declares is simulated among the
// changes of design.
func advised(t *testing.T, f coffee.Family, cfg model.Config, machines []results.Machine) {
	t.Helper()
	a, err := limits.Advise(context.Background(), cfg)
	if err != nil {
		t.Fatalf("advise: %v", err)
	}
	pr := a.Now.Bottleneck
	if pr == nil {
		t.Fatal("advise gives no bottleneck")
	}
	relieved := map[string]bool{}
	var options []string
	for _, o := range a.Options {
		options = append(options, text.Becomes(o.Becomes))
	}
	for _, e := range pr.Experiments {
		for _, r := range e.Resources {
			relieved[r] = true
		}
	}
	st, err := model.StructureOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		kind, _, _ := strings.Cut(r.Name, "×")
		if !relieved[kind] {
			t.Errorf("the model's shop holds the %s, which no relief relieves; the profile relieves %v", kind, relieved)
		}
	}
	for _, m := range machines {
		kind, _, _ := strings.Cut(m.Name, "#")
		if m.MeanWaitMs > 0 && !relieved[kind] {
			t.Errorf("customers waited %.3f ms for the %s, which no relief relieves; the profile relieves %v", m.MeanWaitMs, m.Name, relieved)
		}
	}
	for _, n := range f.Neighbours {
		as := n.Of(coffee.MustParseMode(cfg.Mode)).String()
		if !slices.Contains(options, as) {
			t.Errorf("advise does not try the neighbour %s; it tries %v", as, options)
		}
	}
}
