package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/measure/burn"
	"github.com/brewput/brewput/results"
)

// options is a valid study: two modes on 1 and 2 CPUs, 1 s a point.
func options() Options {
	return Options{Modes: []coffee.Mode{coffee.MustParseMode("locking"), coffee.MustParseMode("multi-2")}, CPUs: "1-2", MaxCPUs: 2, Steps: coffee.DefaultSteps(), Burn: "wall", Count: 3, Noisy: "retry",
		Load: results.Load{Dur: time.Second, Warmup: 200 * time.Millisecond, Harness: "brewput", MaxQ: 1000}}
}

// Batch plans each mode on each CPU count with the options' load, steps
// and rounds; an open loop's interval becomes its rate.
func TestOptionsStudy(t *testing.T) {
	st, err := options().Batch()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Specs) != 4 || st.Count != 3 || st.Retry.Attempts == 0 || st.Specs[0].Rate != 0 || st.Specs[3].CPUs != 2 {
		t.Errorf("Batch() = %+v, want 2 modes on 2 CPU counts, 3 rounds, retried, closed loop", st)
	}
	o := options()
	o.Interval, o.Given, o.Noisy = 2*time.Millisecond, []string{"interval"}, "ok"
	st, err = o.Batch()
	if err != nil {
		t.Fatal(err)
	}
	if s := st.Specs[0]; s.Rate != 500 || s.MaxQ != 1000 || s.Steps.Clock != burn.Wall || st.Retry.Attempts != 0 {
		t.Errorf("an open loop of one arrival every 2ms: %+v, want rate 500/s, maxq 1000, wall clock, no retries", s)
	}
}

// Each value out of range, and each pair of options that do not go
// together, is refused with an error naming the option and what it
// accepts; the model's studies may be larger than a measurement's.
func TestOptionsRefused(t *testing.T) {
	for _, c := range []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.CPUs = "3" }, "--cpus: "},
		{func(o *Options) { o.Par = -1 }, "--par -1: want 0 (one per CPU)"},
		{func(o *Options) { o.Dur = 0 }, "--dur 0s: want a positive duration"},
		{func(o *Options) { o.Warmup = -time.Second }, "--warmup -1s: want zero or a positive"},
		{func(o *Options) { o.Rate, o.Interval, o.Given = 5, time.Second, []string{"rate", "interval"} }, "--rate and --interval: give one"},
		{func(o *Options) { o.Given = []string{"rate"} }, "--rate 0: want a positive number"},
		{func(o *Options) { o.Given = []string{"maxq"} }, "--maxq: only applies to an open loop"},
		{func(o *Options) { o.Count = 0 }, "--count 0: want 1 or more"},
		{func(o *Options) { o.Count = MaxRounds + 1 }, "--count 1001: want 1 to 1000 rounds"},
		{func(o *Options) { o.Harness = "x" }, `--harness "x": want brewput or talk`},
		{func(o *Options) { o.Harness, o.Rate, o.Given = "talk", 100, []string{"rate"} }, "--harness talk: the talk's harness is a closed loop"},
		{func(o *Options) { o.Rate, o.Given = 0.5, []string{"rate"} }, "--rate 0.5: want 1 to 1000000 orders per second"},
		{func(o *Options) { o.Interval, o.Given = 2*time.Second, []string{"interval"} }, "--interval 2s: want 1µs to the --dur window (1s)"},
		{func(o *Options) { o.Par = MaxWorkers + 1 }, "--par 10001: want 0 to 10000 customers for a measurement"},
		{func(o *Options) { o.Noisy = "maybe" }, `--noisy "maybe": want retry`},
		{func(o *Options) { o.Steps.Steam = 2 * time.Second }, "--steam 2s: want at most the --dur window (1s)"},
		{func(o *Options) { o.Steps.Jitter = -time.Millisecond }, "--jitter -1ms: want zero or a positive duration"},
		{func(o *Options) { o.Burn = "sun" }, "--burn: "},
	} {
		o := options()
		c.change(&o)
		if _, err := o.Batch(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Batch() = %v, want an error beginning %q", err, c.want)
		}
	}
	o := options()
	o.Par, o.Count, o.Simulated = MaxWorkers+1, MaxRounds+1, true
	if _, err := o.Batch(); err != nil {
		t.Errorf("a model's study of %d customers, %d rounds: %v", o.Par, o.Count, err)
	}
}

// ParseModes reads a list, naming --modes in its error; One plans one
// mode on one CPU count, and refuses a list of modes or of counts.
func TestParseModesAndOne(t *testing.T) {
	modes, err := ParseModes("locking, multi-2")
	if err != nil || len(modes) != 2 || modes[1].String() != "multi-2" {
		t.Errorf("ParseModes = %v, %v; want locking and multi-2", modes, err)
	}
	if _, err := ParseModes("locking,nope"); err == nil || !strings.HasPrefix(err.Error(), "--modes: ") {
		t.Errorf("ParseModes of an unknown mode = %v, want an error naming --modes", err)
	}
	o := options()
	o.CPUs = "2"
	s, err := o.One("finelocking", "advise", 6)
	if err != nil || s.Mode.String() != "finelocking" || s.CPUs != 2 {
		t.Errorf("One(finelocking) = %+v, %v; want finelocking on 2 CPUs", s, err)
	}
	if s, err := o.One("", "advise", 6); err != nil || s.Mode.Family != "noop" {
		t.Errorf("One of no mode = %+v, %v; want a point of any mode", s, err)
	}
	for _, c := range []struct{ mode, cpus, want string }{
		{"locking,multi-2", "2", `--mode "locking,multi-2": why takes one mode`},
		{"nope", "2", "--mode: "},
		{"locking", "1-2", "--cpus 1-2: why takes one CPU count, such as --cpus 2"},
	} {
		o.CPUs = c.cpus
		if _, err := o.One(c.mode, "why", 2); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("One(%q) on --cpus %s = %v, want %q", c.mode, c.cpus, err, c.want)
		}
	}
}
