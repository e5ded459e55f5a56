package driver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/report/text"
)

func runAdvise(t *testing.T, args ...string) string {
	t.Helper()
	stdout, _ := succeeds(t, noChild(), append([]string{"advise"}, args...)...)
	return stdout
}

func TestAdviseFinelocking(t *testing.T) {
	t.Parallel()
	out := runAdvise(t, append([]string{"--mode", "finelocking", "--cpus", "6"}, goCosts...)...)
	first, _, _ := strings.Cut(out, "\n\n") // the answer, a paragraph
	first = strings.ReplaceAll(first, "\n", " ")
	for _, want := range []string{"finelocking on 6 CPUs", "limited by the grinder", "Best change: another copy of each machine (multi-2): 1500 lattes/s"} {
		if !strings.Contains(first, want) {
			t.Errorf("the answer %q lacks %q", first, want)
		}
	}
	// A line a change that helps, best first; the others counted.
	if !strings.Contains(out, "\ngain   lattes/s  p50 ms  change: its cost\n+53 %  1500      4.00    another copy of each machine (multi-2): 3 machines\n") ||
		!strings.Contains(oneLine(out), "changes tried gain 1 % or less and cut no latency (--format json lists them).") {
		t.Errorf("no table of changes:\n%s", out)
	}
	if n := strings.Count(out, "\n"); n > 20 {
		t.Errorf("%d lines, want a screen's 20 at most:\n%s", n, out)
	}
}

func TestAdviseJSON(t *testing.T) {
	t.Parallel()
	out := runAdvise(t, "--mode", "locking", "--cpus", "4", "--sched", "fifo", "--format", "json")
	var a limits.Advice
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("advise --format json: %v\n%s", err, out)
	}
	if a.Mode != "locking" || a.CPUs != 4 || a.Now.Bottleneck.Resource != "kitchen" || len(a.Options) < 3 || text.Becomes(a.Options[0].Becomes) != "finelocking" {
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
	out := runAdvise(t, "--model", "../../../../examples/cafe.yaml", "--cpus", "4", "--sched", "fifo")
	flat := strings.ReplaceAll(out, "\n", " ") // the answer wraps
	if !strings.HasPrefix(flat, "cafe on 4 CPUs makes 250 lattes/s, limited by the barista") || !strings.Contains(flat, "Best change: one more barista") {
		t.Errorf("cafe:\n%s", out)
	}
}

func TestAdviseBadInput(t *testing.T) {
	cases := append(badOnePoint("1-4", "0"),
		badArgs{[]string{"--mode", "finelocking", "--model", "x.yaml"}, "one or the other"},
		badArgs{[]string{"--model", "/nonexistent/shop.yaml"}, "--model"})
	for _, c := range cases {
		expectUsage(t, nil, append([]string{"advise"}, c.args...), []string{c.want})
	}
}

// badArgs are a command's bad arguments, after its name, and what the one
// line of its usage error must hold.
type badArgs struct {
	args []string
	want string
}

// badOnePoint is the bad input that advise and why, which both take one
// mode at one CPU count, refuse alike: cpuRange is a range of CPUs and
// badCPUs a count beyond what the command takes.
func badOnePoint(cpuRange, badCPUs string) []badArgs {
	return []badArgs{
		{nil, "give --mode NAME"},
		{[]string{"--mode", "foo"}, `--mode: unknown mode "foo"`},
		{[]string{"--mode", "finelocking,locking"}, "one mode"},
		{[]string{"--mode", "finelocking", "--cpus", cpuRange}, "one CPU count"},
		{[]string{"--mode", "finelocking", "--cpus", badCPUs}, "--cpus"},
		{[]string{"--mode", "finelocking", "--format", "csv"}, `--format "csv": want table or json`},
		{[]string{"--mode", "finelocking", "--sched", "rr"}, "--sched"},
		{[]string{"--mode", "noop", "--sched", "fifo"}, "no virtual time"},
		{[]string{"--mode", "finelocking", "--dur", "0s"}, "--dur"},
		{[]string{"--mode", "finelocking", "extra"}, "no arguments"},
	}
}
