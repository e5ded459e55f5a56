package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// brewput why measures a point and its reliefs for real: only the shape
// of what it prints and its exit status are checked, never the timings.
func TestWhy(t *testing.T) {
	t.Parallel()
	stdout, stderr := succeeds(t, selfChild(),
		"why", "--mode", "locking", "--cpus", "1", "--count", "2", "--dur", "30ms", "--warmup", "10ms", "--sched", "fifo")
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

	stdout, _ = succeeds(t, selfChild(),
		"why", "--mode", "finelocking", "--cpus", "1", "--count", "2", "--dur", "20ms", "--warmup", "10ms", "--sched", "fifo", "--format", "json")
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
	cases := append(badOnePoint("1-2", "999"),
		badArgs{[]string{"--mode", "finelocking", "--count", "1"}, "--count 1"},
		badArgs{[]string{"--mode", "finelocking", "--model", "x.yaml"}, "--model"})
	for _, c := range cases {
		expectUsage(t, nil, append([]string{"why"}, c.args...), []string{c.want})
	}
}
