package model

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
)

// everyMode names one mode of each of coffee's families, with N of 0 (where
// the family takes it), 1 and 2: the unbuffered pipelines are the likeliest
// to deadlock, and N > 1 names machines with #1, #2.
func everyMode(t *testing.T) []string {
	var modes []string
	for _, f := range coffee.Families() {
		if f.Param() == "" {
			modes = append(modes, f.Name)
			continue
		}
		for _, n := range []string{"0", "1", "2"} {
			if _, err := coffee.ParseMode(f.Name + "-" + n); err == nil {
				modes = append(modes, f.Name+"-"+n)
			}
		}
	}
	if len(modes) < 20 {
		t.Fatalf("only %d modes: %v", len(modes), modes)
	}
	return modes
}

// TestEveryModeMirrorsCoffee: every mode coffee has, the model compiles,
// and meters the same resources under the same names, in the same order,
// as the real shop, and reports the same unit; each drink uses each of its
// machines once; coffee's Parts, which advise's costs count, counts them.
func TestEveryModeMirrorsCoffee(t *testing.T) {
	for _, name := range everyMode(t) {
		mode, _ := coffee.ParseMode(name)
		shop, err := coffee.OpenVariant(mode, coffee.DefaultSteps(), coffee.Variant{})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range shop.Meters() {
			want = append(want, m.Name())
		}
		shop.Close()

		cfg := talk(name, 2)
		if name == "noop" {
			cfg.Rate = 1000 // a noop takes no virtual time: only an open loop advances
		}
		r := run(t, cfg)
		var got []string
		for _, m := range r.Machines {
			got = append(got, m.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: model meters %v, coffee meters %v", name, got, want)
		}
		if p := r.point(cfg); p.Unit != mode.Unit() || p.Mode != name {
			t.Errorf("%s: point says mode %q, unit %q; want %q, %q", name, p.Mode, p.Unit, name, mode.Unit())
		}
		if r.Lattes == 0 {
			t.Errorf("%s: no drinks", name)
		}
		if p := blueprint.Shop(mode, coffee.DefaultSteps(), coffee.Variant{}).Parts(); p.Machines+p.Locks < len(got) {
			t.Errorf("%s: its parts count %d machines and %d locks; it meters %v", name, p.Machines, p.Locks, got)
		}
		// Each drink uses each kind of machine once; the window's edges cut
		// at most one drink per customer in two.
		perKind := map[string]int64{}
		for _, m := range r.Machines {
			kind, _, _ := strings.Cut(m.Name, "#")
			perKind[kind] += m.Uses
		}
		for kind, uses := range perKind {
			if d := uses - int64(r.Lattes); d < -2 || d > 2 {
				t.Errorf("%s: %s used %d times for %d drinks", name, kind, uses, r.Lattes)
			}
		}
	}
}

// TestUnbufferedHandoffUnderSpinWindow: with a spin window longer than the
// wake-up, as this machine's calibration found (80 µs against 70 to
// 82 µs), a receiver that takes a waiting sender's value on linearpipe-0's
// unbuffered channels pays the handoff's cost and may let the sender run
// first; the value must still be the one sent. The engine once read it
// after the sender had recycled its slot, and a stage received an empty
// order.
func TestUnbufferedHandoffUnderSpinWindow(t *testing.T) {
	us := time.Microsecond
	costs := sim.Costs{Switch: 280 * time.Nanosecond, Wake: 70 * us, SpinWake: 1200 * time.Nanosecond, SpinWindow: 80 * us,
		MutexHandoff: 3 * us, ChanHandoff: 3700 * time.Nanosecond, BufChanHandoff: 3600 * time.Nanosecond}
	cfg := DefaultConfig(2)
	cfg.Mode, cfg.Policy.Sched, cfg.Costs = "linearpipe-0", "go", costs
	r, err := simulateOne(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Throughput < 400 || r.Throughput > 500 {
		t.Errorf("linearpipe-0 on 2 CPUs: %.0f lattes/s, want 400 to the bound of 500", r.Throughput)
	}
}
