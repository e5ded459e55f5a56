package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model/blueprint"
)

// TestCheckRunPilots: a blueprint of nanosecond steps under the go policy
// makes far fewer events than its structural estimate; refused on the
// estimate alone, a run is let through where its pilots show it fits, a
// pilot's share carrying to the whole simulation. A pilot that finishes
// too few orders leaves the estimate as it is.
func TestCheckRunPilots(t *testing.T) {
	bp, err := blueprint.Parse("mu.yaml", []byte("name: mu\nunit: ops\nresources: {mu: 1}\nsteps:\n  - {name: out, duration: 13ns}\n  - {name: in, duration: 13ns, holds: [mu]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := SystemConfig(bp, 2)
	c.Warmup, c.Dur = 2*time.Millisecond, 20*time.Millisecond
	r, err := simulateOne(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	real, est := float64(r.Events), c.Footprint().Events
	if est < 3*real {
		t.Fatalf("estimated %.3g events, simulated %.3g: the test wants an estimate well above", est, real)
	}
	share, _ := c.pilot(time.Minute)
	if got := share * est / real; math.Abs(got-1) > 0.05 {
		t.Errorf("the pilot's share carried %.3g events of the %.3g simulated (×%.3f)", share*est, real, got)
	}

	l := Limits{Events: MaxEvents, Work: 2 * real}
	if err := CheckRun([]Config{c}, []int{1}, 1, 1, l); err == nil || !strings.Contains(err.Error(), "would process about") {
		t.Errorf("without pilots: %v, want refused for its events", err)
	}
	l.Pilot = time.Minute
	if err := CheckRun([]Config{c}, []int{1}, 1, 1, l); err != nil {
		t.Errorf("with pilots: %v, want let through", err)
	}

	// An order of a millisecond that could make thousands of events: its
	// pilot's window holds about a hundred.
	var y strings.Builder
	y.WriteString("name: wide\nunit: ops\nresources:\n")
	var held []string
	for i := range 1000 {
		fmt.Fprintf(&y, "  r%d: 1\n", i)
		held = append(held, fmt.Sprintf("r%d", i))
	}
	fmt.Fprintf(&y, "steps:\n  - {name: work, duration: 1ms, holds: [%s]}\n", strings.Join(held, ", "))
	wide, err := blueprint.Parse("wide.yaml", []byte(y.String()))
	if err != nil {
		t.Fatal(err)
	}
	w := SystemConfig(wide, 1)
	w.Warmup, w.Dur = 0, time.Hour
	if share, _ := w.pilot(time.Minute); share != 1 {
		t.Errorf("a pilot that finished too few orders: share %.3g, want 1", share)
	}
}
