package coffee

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Every variant a causal profile tries on real CPUs builds, brews and shuts
// down (goleak in TestMain), with the machines it says: a pool of copies,
// more stage workers, a kitchen lock split.
func TestVariantsBrew(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		v     Variant
		names []string
	}{
		{"finelocking", Variant{Copies: Machines{Grinder: 2}}, []string{"grinder#1", "grinder#2", "espresso", "steamer"}},
		{"parsteam", Variant{Copies: Machines{Steamer: 3}}, []string{"grinder", "espresso", "steamer#1", "steamer#2", "steamer#3"}},
		{"americano", Variant{Copies: Machines{Espresso: 2}}, []string{"grinder", "espresso#1", "espresso#2"}},
		{"multi-2", Variant{Copies: Machines{Grinder: 3}}, []string{"grinder#1", "grinder#2", "grinder#3", "espresso#1", "espresso#2", "steamer#1", "steamer#2"}},
		{"linearpipe-0", Variant{Copies: Machines{Espresso: 2}, Buffers: Machines{Grinder: 1}}, []string{"grinder", "espresso#1", "espresso#2", "steamer"}},
		{"multipipe-2", Variant{Copies: Machines{Steamer: 2}}, []string{"grinder#1", "espresso#1", "steamer#1", "steamer#2", "grinder#2", "espresso#2", "steamer#3", "steamer#4"}},
		{"splitpipe-0", Variant{Copies: Machines{Grinder: 2}, Buffers: Machines{Steamer: 2}}, []string{"grinder#1", "grinder#2", "espresso", "steamer"}},
		{"espressopipe-1", Variant{Buffers: Machines{Espresso: 2}}, []string{"grinder", "espresso"}},
		{"locking", Variant{Split: true}, []string{"kitchen", "grinder", "espresso", "steamer"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			m, err := ParseMode(tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			shop, err := OpenVariant(m, quickSteps(), tc.v)
			if err != nil {
				t.Fatal(err)
			}
			// A fixed number of drinks, four customers at once: a time
			// window could close before a starved process made one.
			const drinks = 40
			errs := make([]error, 4)
			var wg sync.WaitGroup
			for i := range errs {
				wg.Go(func() {
					for range drinks / len(errs) {
						if errs[i] = shop.Brew(); errs[i] != nil {
							return
						}
					}
				})
			}
			wg.Wait()
			shop.Close()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			var names []string
			var uses int64
			for _, mt := range shop.Meters() {
				names = append(names, mt.Name())
				uses += mt.Read().Uses
			}
			if !slices.Equal(names, tc.names) {
				t.Errorf("machines %v, want %v", names, tc.names)
			}
			if uses < drinks {
				t.Errorf("%d drinks, %d machine uses; want a use at least each", drinks, uses)
			}
		})
	}
}

func TestVariantRefused(t *testing.T) {
	for _, tc := range []struct {
		mode string
		v    Variant
		want string
	}{
		{"ideal", Variant{Copies: Machines{Grinder: 2}}, "holds no machine"},
		{"locking", Variant{Copies: Machines{Grinder: 2}}, "holds no machine"},
		{"finelocking", Variant{Buffers: Machines{Grinder: 2}}, "no pipeline"},
		{"finelocking", Variant{Split: true}, "only locking"},
		{"americano", Variant{Copies: Machines{Steamer: 2}}, "no steamer"},
		{"multi-2", Variant{Copies: Machines{Grinder: -1}}, "want 0"},
	} {
		m, _ := ParseMode(tc.mode)
		if _, err := OpenVariant(m, quickSteps(), tc.v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: err %v, want %q", tc.mode, tc.v, err, tc.want)
		}
	}
}

// Machines' numbers by kind name: With sets the one it names and no other,
// Kind reads it back, and an unknown name changes nothing and reads 0.
func TestMachinesByKind(t *testing.T) {
	m := Machines{Grinder: 1, Espresso: 2, Steamer: 3}
	for _, kind := range []string{"grinder", "espresso", "steamer"} {
		got := m.With(kind, 9)
		for _, other := range []string{"grinder", "espresso", "steamer"} {
			want := m.Kind(other)
			if other == kind {
				want = 9
			}
			if got.Kind(other) != want {
				t.Errorf("With(%q, 9).Kind(%q) = %d, want %d", kind, other, got.Kind(other), want)
			}
		}
	}
	if m.With("kettle", 9) != m || m.Kind("kettle") != 0 || m.Kind("grinder") != 1 {
		t.Errorf("an unknown kind: With %+v, Kind %d; want %+v and 0", m.With("kettle", 9), m.Kind("kettle"), m)
	}
}
