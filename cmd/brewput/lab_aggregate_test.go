package main

import (
	"context"
	"strings"
	"testing"
)

// The aggregate lab runs from the command line, small, on 1 CPU; its
// lesson is checked in package aggregate.
func TestAggregateLabRun(t *testing.T) {
	ps := runLab(t, "aggregate", "--cpus", "1", "--events", "2000", "--producers", "2", "--buffers", "0,10",
		"--run-length", "4", "--handle-cost", "1us", "--seed", "3", "--reps", "1")
	want := []string{"single/P=2/S=0", "grouped/P=2/S=0", "single/P=2/S=10", "grouped/P=2/S=10"}
	if len(ps) != len(want) {
		t.Fatalf("%d points, want %d", len(ps), len(want))
	}
	for i, p := range ps {
		m := p.Metrics
		if p.Variant != want[i] || p.Par != 2 || p.Ops != 2000 || m["lost"] != 0 || m["events"] != 2000 || m["handle_cost_us"] != 1 || m["run_length"] != 4 {
			t.Errorf("point %d: %s, par %d, %d events, metrics %v; want %s with the flags' values", i, p.Variant, p.Par, p.Ops, m, want[i])
		}
		if _, ok := m["speedup"]; ok != strings.HasPrefix(p.Variant, "grouped/") {
			t.Errorf("%s: speedup %v, want one on grouped points only", p.Variant, m["speedup"])
		}
	}
}

func TestAggregateLabBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--events", "0"}, "--events 0"},
		{[]string{"--producers", "0"}, "--producers 0"},
		{[]string{"--producers", "x"}, "--producers"},
		{[]string{"--buffers", "-1"}, "--buffers -1"},
		{[]string{"--run-length", "0.5"}, "--run-length 0.5"},
		{[]string{"--handle-cost", "fast"}, "--handle-cost"},
		{[]string{"--handle-cost", "-1us"}, "--handle-cost -1µs"},
		{[]string{"--reps", "0"}, "--reps 0"},
	} {
		args := append([]string{"lab", "aggregate"}, c.args...)
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("brewput %q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}
