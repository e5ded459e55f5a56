package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// schedule traces cfg over span and fails the test on an error.
func schedule(t *testing.T, cfg Config, span time.Duration) (time.Duration, []Step) {
	t.Helper()
	cfg.Trace = &Trace{Span: span}
	if _, err := simulateOne(cfg, nil); err != nil {
		t.Fatalf("%s on %d CPUs: %v", cfg.Mode, cfg.CPUs, err)
	}
	return cfg.Trace.Start, cfg.Trace.Steps
}

// checkSteps checks what holds of any schedule: each step on one of the
// CPUs, inside the span, for one of the customers, and no CPU running
// two at once.
func checkSteps(t *testing.T, cfg Config, start, span time.Duration, steps []Step) {
	t.Helper()
	if len(steps) == 0 {
		t.Fatalf("%s on %d CPUs: no step in %v", cfg.Mode, cfg.CPUs, span)
	}
	customers := cfg.Resolve().Par
	for i, s := range steps {
		switch {
		case s.CPU < 0 || s.CPU >= cfg.CPUs:
			t.Fatalf("step on CPU %d of %d: %+v", s.CPU, cfg.CPUs, s)
		case s.Start < start || s.End > start+span || s.End <= s.Start:
			t.Fatalf("step %+v outside [%v, %v]", s, start, start+span)
		case s.Runtime && (s.Customer != 0 || s.Machine != ""):
			t.Fatalf("the runtime's work for a customer or on a machine: %+v", s)
		case !s.Runtime && (s.Customer < 1 || s.Customer > customers):
			t.Fatalf("step for customer %d of %d: %+v", s.Customer, customers, s)
		case i > 0 && steps[i-1].CPU == s.CPU && steps[i-1].End > s.Start:
			t.Fatalf("CPU %d runs two steps at once: %+v, %+v", s.CPU, steps[i-1], s)
		}
	}
}

// most is the most steps on machines named by match at any one time.
func most(steps []Step, match func(string) bool) int {
	type edge struct {
		at time.Duration
		d  int
	}
	var es []edge
	for _, s := range steps {
		if match(s.Machine) {
			es = append(es, edge{s.Start, 1}, edge{s.End, -1})
		}
	}
	slices.SortFunc(es, func(a, b edge) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return a.d - b.d // an end before a start at the same instant
	})
	n, top := 0, 0
	for _, e := range es {
		n += e.d
		top = max(top, n)
	}
	return top
}

// TestScheduleFinelocking: the talk's picture. On 6 CPUs finelocking's
// grinder is held all the time, one latte at a time, and CPUs go idle
// while the other customers wait for it: the steps fill only 4 CPUs'
// worth of the 6.
func TestScheduleFinelocking(t *testing.T) {
	cfg := talk("finelocking", 6)
	span := 20 * ms
	start, steps := schedule(t, cfg, span)
	checkSteps(t, cfg, start, span, steps)
	if n := most(steps, func(m string) bool { return m == "grinder" }); n != 1 {
		t.Errorf("%d grinder steps at once; its lock allows 1", n)
	}
	var grinding, all time.Duration
	for _, s := range steps {
		all += s.End - s.Start
		if s.Machine == "grinder" {
			grinding += s.End - s.Start
		}
	}
	if grinding < span-ms {
		t.Errorf("the grinder worked %v of %v; the wall is the grinder, held all the time", grinding, span)
	}
	if all > 4*span+4*ms || all < 4*span-4*ms {
		t.Errorf("the CPUs ran %v of steps in %v; 1000 lattes/s of 4 ms each fill 4 CPUs of 6", all, span)
	}
	// Each customer's steps come in the latte's order.
	next := map[string]string{"grinder": "espresso", "espresso": "steamer", "steamer": "", "": "grinder"}
	last := map[int]Step{}
	byTime := slices.Clone(steps)
	slices.SortStableFunc(byTime, func(a, b Step) int { return int(a.Start - b.Start) })
	for _, s := range byTime {
		if l, ok := last[s.Customer]; ok && l.End == s.Start && l.Machine == s.Machine {
			last[s.Customer] = s // a step cut by nothing: cannot be, but harmless
			continue
		}
		if l, ok := last[s.Customer]; ok && next[l.Machine] != s.Machine {
			t.Fatalf("customer %d: %q after %q", s.Customer, s.Machine, l.Machine)
		}
		last[s.Customer] = s
	}
	if len(last) != 6 {
		t.Errorf("%d customers ran steps; want all 6", len(last))
	}
}

// TestScheduleReplicas: multi-2 has two grinders, each one latte at a
// time, and keeps every CPU busy on 6 CPUs.
func TestScheduleReplicas(t *testing.T) {
	cfg := talk("multi-2", 6)
	span := 20 * ms
	start, steps := schedule(t, cfg, span)
	checkSteps(t, cfg, start, span, steps)
	if n := most(steps, func(m string) bool { return strings.HasPrefix(m, "grinder#") }); n != 2 {
		t.Errorf("%d grinder steps at once; there are 2 grinders", n)
	}
	for _, g := range []string{"grinder#1", "grinder#2"} {
		if n := most(steps, func(m string) bool { return m == g }); n != 1 {
			t.Errorf("%s runs %d steps at once", g, n)
		}
	}
	var all time.Duration
	for _, s := range steps {
		all += s.End - s.Start
	}
	if all != 6*span {
		t.Errorf("the CPUs ran %v of steps in %v on 6 CPUs; multi-2 keeps them all busy", all, span)
	}
}

// TestScheduleEveryMode: every mode's schedule holds together under both
// policies, pipelines (whose stages work for the customers) and parsteam
// (whose steaming runs in a helper) included, and is the same twice.
func TestScheduleEveryMode(t *testing.T) {
	for _, mode := range []string{"ideal", "locking", "parsteam", "linearpipe-1", "splitpipe-0", "multipipe-2", "espresso"} {
		for _, sched := range []string{"fifo", "go"} {
			t.Run(fmt.Sprintf("%s/%s", mode, sched), func(t *testing.T) {
				cfg := talk(mode, 3)
				cfg.Policy.Sched = sched
				cfg.Costs.Switch, cfg.Costs.ChanHandoff = time.Microsecond, 2*time.Microsecond
				start, steps := schedule(t, cfg, 10*ms)
				checkSteps(t, cfg, start, 10*ms, steps)
				_, again := schedule(t, cfg, 10*ms)
				if !slices.Equal(steps, again) {
					t.Errorf("two schedules of the same configuration differ")
				}
				if mode == "locking" {
					if n := most(steps, func(string) bool { return true }); n != 1 {
						t.Errorf("locking runs %d steps at once; its kitchen lock allows 1", n)
					}
				}
			})
		}
	}
}

// TestScheduleOpenLoop: an open loop's servers are the customers drawn.
func TestScheduleOpenLoop(t *testing.T) {
	cfg := talk("finelocking", 2)
	cfg.Rate, cfg.MaxQ = 400, 10
	start, steps := schedule(t, cfg, 10*ms)
	checkSteps(t, cfg, start, 10*ms, steps)
}

// TestScheduleBadSpan: a span must be positive.
func TestScheduleBadSpan(t *testing.T) {
	cfg := talk("finelocking", 2)
	cfg.Trace = &Trace{}
	if _, err := simulateOne(cfg, nil); err == nil {
		t.Error("a trace with a span of 0: no error")
	}
}
