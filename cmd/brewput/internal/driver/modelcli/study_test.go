package modelcli

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/measure/burn"
)

// studyOf registers the study flags on a flag set and parses args after a
// valid study's: two modes on 1 and 2 CPUs, 1 s a point, 3 rounds.
func studyOf(t *testing.T, simulated bool, args ...string) (*StudyFlags, *pflag.FlagSet) {
	t.Helper()
	f := &StudyFlags{Simulated: simulated}
	fs := pflag.NewFlagSet("study", pflag.ContinueOnError)
	f.Register(fs, time.Second, 200*time.Millisecond)
	if err := fs.Parse(append([]string{"--modes", "locking,multi-2", "--cpus", "1-2", "--count", "3"}, args...)); err != nil {
		t.Fatal(err)
	}
	return f, fs
}

// Plan plans each mode on each CPU count with the flags' load, steps and
// rounds; an open loop's interval becomes its rate.
func TestStudyPlan(t *testing.T) {
	f, fs := studyOf(t, false)
	st, err := f.Plan(fs, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Specs) != 4 || st.Count != 3 || st.Retry.Attempts == 0 || st.Specs[0].Rate != 0 || st.Specs[3].CPUs != 2 {
		t.Errorf("plan = %+v, want 2 modes on 2 CPU counts, 3 rounds, retried, closed loop", st)
	}
	f, fs = studyOf(t, false, "--interval", "2ms", "--noisy", "ok")
	if st, err = f.Plan(fs, 2); err != nil {
		t.Fatal(err)
	}
	if s := st.Specs[0]; s.Rate != 500 || s.MaxQ != 1000 || s.Steps.Clock != burn.Wall || st.Retry.Attempts != 0 {
		t.Errorf("an open loop of one arrival every 2ms: %+v, want rate 500/s, maxq 1000, wall clock, no retries", s)
	}
}

// Each value out of range, and each pair of flags that do not go
// together, is refused with an error naming the flag and what it
// accepts, where it is parsed (a flag of a few words) or planned; the
// model's studies may be larger than a measurement's.
func TestStudyRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--cpus", "3"}, "--cpus: "},
		{[]string{"--modes", "locking,nope"}, "--modes: "},
		{[]string{"--par", "-1"}, "--par -1: want 0 (one per CPU) or a positive number of customers"},
		{[]string{"--dur", "0s"}, "--dur 0s: want a positive duration"},
		{[]string{"--warmup", "-1s"}, "--warmup -1s: want zero or a positive"},
		{[]string{"--rate", "5", "--interval", "1s"}, "--rate and --interval: give one"},
		{[]string{"--rate", "0"}, "--rate 0: want a positive number of orders per second, such as 800"},
		{[]string{"--maxq", "3"}, "--maxq: only applies to an open loop"},
		{[]string{"--count", "0"}, "--count 0: want 1 or more"},
		{[]string{"--count", "1001"}, "--count 1001: want 1 to 1000 rounds"},
		{[]string{"--harness", "x"}, `--harness "x": want brewput or talk`},
		{[]string{"--harness", "talk", "--rate", "100"}, "--harness talk: the talk's harness is a closed loop"},
		{[]string{"--rate", "0.5"}, "--rate 0.5: want 1 to 1000000 orders per second"},
		{[]string{"--interval", "2s"}, "--interval 2s: want 1µs to the --dur window (1s)"},
		{[]string{"--par", "10001"}, "--par 10001: want 0 to 10000 customers for a measurement"},
		{[]string{"--noisy", "maybe"}, `--noisy "maybe": want retry`},
		{[]string{"--steam", "2s"}, "--steam 2s: want at most the --dur window (1s)"},
		{[]string{"--jitter", "-1ms"}, "--jitter -1ms: want zero or a positive duration"},
		{[]string{"--latte", "-1ms"}, "--latte -1ms: want zero or a positive duration"},
		{[]string{"--combine", "2s"}, "--combine 2s: want at most the --dur window"},
		{[]string{"--burn", "sun"}, "--burn: "},
	} {
		f := &StudyFlags{}
		fs := pflag.NewFlagSet("study", pflag.ContinueOnError)
		f.Register(fs, time.Second, 200*time.Millisecond)
		err := ExplainFlag(fs.Parse(append([]string{"--modes", "locking,multi-2", "--cpus", "1-2", "--count", "3"}, c.args...)))
		if err == nil {
			_, err = f.Plan(fs, 2)
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: plan = %v, want an error beginning %q", c.args, err, c.want)
		}
	}
	f, fs := studyOf(t, true, "--par", "10001", "--count", "1001")
	if _, err := f.Plan(fs, 2); err != nil {
		t.Errorf("a model's study of 10001 customers, 1001 rounds: %v", err)
	}
}

// PlanOne plans one mode on one CPU count, any mode where none is given,
// and refuses a list of modes or of counts.
func TestStudyPlanOne(t *testing.T) {
	f, fs := studyOf(t, false, "--cpus", "2")
	s, err := f.PlanOne(fs, 2, "finelocking", "advise", 6)
	if err != nil || s.Mode.String() != "finelocking" || s.CPUs != 2 {
		t.Errorf("PlanOne(finelocking) = %+v, %v; want finelocking on 2 CPUs", s, err)
	}
	if s, err := f.PlanOne(fs, 2, "", "advise", 6); err != nil || s.Mode.Family != "noop" {
		t.Errorf("PlanOne of no mode = %+v, %v; want a point of any mode", s, err)
	}
	for _, c := range []struct{ mode, cpus, want string }{
		{"locking,multi-2", "2", `--mode "locking,multi-2": why takes one mode`},
		{"nope", "2", "--mode: "},
		{"locking", "1-2", "--cpus 1-2: why takes one CPU count, such as --cpus 2"},
	} {
		f, fs := studyOf(t, false, "--cpus", c.cpus)
		if _, err := f.PlanOne(fs, 2, c.mode, "why", 2); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("PlanOne(%q) on --cpus %s = %v, want %q", c.mode, c.cpus, err, c.want)
		}
	}
}
