package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/brewput/brewput/explain/limits"
)

func runAdvise(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := brewput(context.Background(), t, noChild(), append([]string{"advise"}, args...)...)
	if code != exitOK {
		t.Fatalf("brewput advise %q: exit %d; stderr:\n%s", args, code, stderr)
	}
	return stdout
}

func TestAdviseFinelocking(t *testing.T) {
	t.Parallel()
	out := runAdvise(t, append([]string{"--mode", "finelocking", "--cpus", "6"}, goCosts...)...)
	first, _, _ := strings.Cut(out, "\n")
	for _, want := range []string{"finelocking on 6 CPUs", "limited by the grinder", "Best change: another copy of each machine (multi-2): 1500 lattes/s"} {
		if !strings.Contains(first, want) {
			t.Errorf("first line %q lacks %q", first, want)
		}
	}
	if !strings.Contains(out, "rank") || !strings.Contains(out, "twice the CPUs") {
		t.Errorf("no table of changes:\n%s", out)
	}
}

func TestAdviseJSON(t *testing.T) {
	t.Parallel()
	out := runAdvise(t, "--mode", "locking", "--cpus", "4", "--sched", "fifo", "--format", "json")
	var a limits.Advice
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("advise --format json: %v\n%s", err, out)
	}
	if a.Mode != "locking" || a.CPUs != 4 || a.Now.Bottleneck.Resource != "kitchen" || len(a.Options) < 3 || a.Options[0].As != "finelocking" {
		t.Errorf("locking on 4 CPUs: %+v", a)
	}
	for _, key := range []string{`"answer"`, `"throughput_gain"`, `"latency_gain"`, `"cost"`, `"bottleneck"`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestAdviseBlueprint(t *testing.T) {
	t.Parallel()
	out := runAdvise(t, "--model", "../../examples/cafe.yaml", "--cpus", "4", "--sched", "fifo")
	if !strings.HasPrefix(out, "cafe on 4 CPUs makes 250 lattes/s, limited by the barista") || !strings.Contains(out, "Best change: one more barista") {
		t.Errorf("cafe:\n%s", out)
	}
}

func TestAdviseBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"advise"}, "give --mode NAME"},
		{[]string{"advise", "--mode", "foo"}, `--mode: unknown mode "foo"`},
		{[]string{"advise", "--mode", "finelocking,locking"}, "one mode"},
		{[]string{"advise", "--mode", "finelocking", "--cpus", "1-4"}, "one CPU count"},
		{[]string{"advise", "--mode", "finelocking", "--cpus", "0"}, "--cpus"},
		{[]string{"advise", "--mode", "finelocking", "--format", "csv"}, "--format \"csv\": want table or json"},
		{[]string{"advise", "--mode", "finelocking", "--model", "x.yaml"}, "one or the other"},
		{[]string{"advise", "--model", "/nonexistent/shop.yaml"}, "--model"},
		{[]string{"advise", "--mode", "finelocking", "--sched", "rr"}, "--sched"},
		{[]string{"advise", "--mode", "noop", "--sched", "fifo"}, "no virtual time"},
		{[]string{"advise", "--mode", "finelocking", "--dur", "0s"}, "--dur"},
		{[]string{"advise", "--mode", "finelocking", "extra"}, "no arguments"},
	} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), c.args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("brewput %q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}
