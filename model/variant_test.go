package model

import (
	"slices"
	"testing"

	"github.com/brewput/brewput/results"

	"github.com/brewput/brewput/coffee"
)

// Copies is a number for each kind of machine.
type Copies = coffee.Machines

// A variant of a mode meters the same machines as coffee's, and under the
// fifo policy gives what its structure allows: the causal profile's
// reliefs must change what they say they change, and nothing else.
func TestVariants(t *testing.T) {
	for _, tc := range []struct {
		mode                   string
		cpus                   int
		copies, buffers        Copies
		split                  bool
		throughput, structural float64
	}{
		{"finelocking", 6, Copies{Grinder: 2, Espresso: 2, Steamer: 2}, Copies{}, false, 1500, 2000}, // as multi-2: the CPUs bind
		{"finelocking", 6, Copies{Grinder: 2}, Copies{}, false, 1000, 1000},                          // the espresso machine binds
		{"parsteam", 8, Copies{Steamer: 2}, Copies{}, false, 1000, 1000},
		{"locking", 4, Copies{}, Copies{}, true, 333, 1000.0 / 3},                                     // the kitchen held 3 ms
		{"linearpipe-0", 8, Copies{Grinder: 2, Espresso: 2, Steamer: 2}, Copies{}, false, 2000, 2000}, // two workers a stage
		{"multipipe-2", 8, Copies{Grinder: 2}, Copies{}, false, 2000, 2000},
		{"linearpipe-0", 4, Copies{}, Copies{Grinder: 1, Espresso: 1, Steamer: 1}, false, 1000, 1000},
		{"splitpipe-0", 8, Copies{Steamer: 2}, Copies{Steamer: 3}, false, 1000, 1000},
	} {
		cfg := talk(tc.mode, tc.cpus)
		cfg.Variant.Copies, cfg.Variant.Buffers, cfg.Variant.Split = tc.copies, tc.buffers, tc.split
		r := run(t, cfg)
		if d := r.Throughput - tc.throughput; d < -2 || d > 2 {
			t.Errorf("%s %+v on %d CPUs: %.0f lattes/s, want %.0f", tc.mode, cfg.Variant, tc.cpus, r.Throughput, tc.throughput)
		}
		if d := r.Bounds.Structural - tc.structural; d < -0.5 || d > 0.5 {
			t.Errorf("%s %+v: structural bound %.1f, want %.1f", tc.mode, cfg.Variant, r.Bounds.Structural, tc.structural)
		}
		mode, _ := coffee.ParseMode(tc.mode)
		shop, err := coffee.OpenVariant(mode, coffee.DefaultSteps(), cfg.Variant)
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, m := range shop.Meters() {
			want = append(want, m.Name())
		}
		shop.Close()
		for _, m := range r.Machines {
			got = append(got, m.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s %+v: model meters %v, coffee %v", tc.mode, cfg.Variant, got, want)
		}
	}
	if err := (Config{Spec: results.Spec{Mode: "ideal", CPUs: 1, Load: results.Load{Dur: 1}}, Variant: coffee.Variant{Copies: Copies{Grinder: 2}}}).Validate(); err == nil {
		t.Error("copies of ideal's machines: no error")
	}
}

// Held is not working: fifo parsteam on 2 CPUs holds the espresso machine
// all the time, but its step runs only half of it; the rest is waiting
// for a CPU.
func TestHeldIsNotWorking(t *testing.T) {
	r := run(t, talk("parsteam", 2))
	for _, m := range r.Machines {
		if m.WorkingFrac > m.BusyFrac+1e-9 {
			t.Errorf("%s: working %.3f more than held %.3f", m.Name, m.WorkingFrac, m.BusyFrac)
		}
	}
	es := r.Machines[1]
	if es.Name != "espresso" || es.BusyFrac < 0.9 || es.WorkingFrac > 0.55 || es.WorkingFrac < 0.45 {
		t.Errorf("parsteam on 2 CPUs, %d lattes/s: %+v; want the espresso machine held ≥ 90 %%, working about 50 %%", r.Lattes, es)
	}
}
