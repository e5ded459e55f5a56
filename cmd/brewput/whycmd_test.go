package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// brewput why measures a point and its reliefs for real: only the shape
// of what it prints and its exit status are checked, never the timings.
func TestWhy(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := brewput(context.Background(), t, selfChild(),
		"why", "--mode", "locking", "--cpus", "1", "--count", "2", "--dur", "30ms", "--warmup", "10ms", "--sched", "fifo")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"locking on 1 CPU, each measured 2 times on real CPUs, beside the model",
		"the model, fifo policy", "relief", "model", "measured", "range (95 %)", "as it is",
		"grinding 10 % faster", "the kitchen lock held for less: combining outside it", "twice the customers (1 → 2)",
		"The model (fifo): The kitchen lock limits it", "On real CPUs:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "measuring locking as it is and with") {
		t.Errorf("stderr does not say what it measures:\n%s", stderr)
	}

	code, stdout, stderr = brewput(context.Background(), t, selfChild(),
		"why", "--mode", "finelocking", "--cpus", "1", "--count", "2", "--dur", "20ms", "--warmup", "10ms", "--sched", "fifo", "--format", "json")
	if code != exitOK {
		t.Fatalf("json: exit %d; stderr:\n%s", code, stderr)
	}
	var s struct {
		System      string
		Bottleneck  struct{ Resource string }
		Experiments []struct {
			Model   struct{ Change string }
			Skip    string
			Metrics []struct{ Name, Verdict string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if s.System != "finelocking on 1 CPU" || s.Bottleneck.Resource == "" || len(s.Experiments) < 8 {
		t.Errorf("json: %+v", s)
	}
	for _, e := range s.Experiments {
		if e.Skip == "" && (len(e.Metrics) != 3 || e.Metrics[0].Name != "throughput" || e.Metrics[0].Verdict == "") {
			t.Errorf("%s: measured, yet metrics %+v", e.Model.Change, e.Metrics)
		}
	}
}

func TestWhyBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"why"}, "give --mode NAME"},
		{[]string{"why", "--mode", "foo"}, `--mode: unknown mode "foo"`},
		{[]string{"why", "--mode", "finelocking,locking"}, "one mode"},
		{[]string{"why", "--mode", "finelocking", "--cpus", "1-2"}, "one CPU count"},
		{[]string{"why", "--mode", "finelocking", "--cpus", "999"}, "--cpus"},
		{[]string{"why", "--mode", "finelocking", "--count", "1"}, "--count 1"},
		{[]string{"why", "--mode", "finelocking", "--format", "csv"}, `--format "csv": want table or json`},
		{[]string{"why", "--mode", "finelocking", "--model", "x.yaml"}, "--model"},
		{[]string{"why", "--mode", "finelocking", "--sched", "rr"}, "--sched"},
		{[]string{"why", "--mode", "noop", "--sched", "fifo"}, "no virtual time"},
		{[]string{"why", "--mode", "finelocking", "--dur", "0s"}, "--dur"},
		{[]string{"why", "--mode", "finelocking", "extra"}, "no arguments"},
	} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), c.args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("brewput %q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}
