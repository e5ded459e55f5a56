package sweep

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/measure/burn"
	"github.com/brewput/brewput/results"
)

// MaxRounds is the most rounds (Options.Count) a measured study takes: a
// thousand of the shortest points take minutes, of the default study
// hours.
const MaxRounds = 1000

// Options say what a study measures, one field for each of brewput's
// study flags, named as the flag is; Batch checks them and plans the
// study. Its errors name the options as those flags do (--par, --rate),
// each saying what it accepts.
type Options struct {
	Modes []coffee.Mode
	// CPUs are the CPU counts, as a list and ranges such as 1,2 or 1-4,
	// each at most MaxCPUs: the machine's for a measurement, more for a
	// model.
	CPUs    string
	MaxCPUs int
	// Load is every point's; its Rate (orders a second) or Interval
	// (between arrivals) make it an open loop, where given, and its
	// Harness is brewput or talk.
	results.Load
	Interval time.Duration
	// Steps are the shop's steps; their Clock comes from Burn.
	Steps   coffee.Steps
	Burn    string // wall or cpu
	Count   int    // rounds of the whole study
	Profile string // folder for each point's trace and profiles
	Noisy   string // retry, ok or "" (keep)
	// Simulated marks a study for the model, whose sizes the model's
	// memory budget bounds rather than a measurement's limits.
	Simulated bool
	// Given names the options given rather than left at their defaults:
	// "rate", "interval", "maxq", "profile" and "latte" (--combine's older
	// name, which errors then say) count.
	Given []string
}

// given reports whether the option name was given.
func (o Options) given(name string) bool { return slices.Contains(o.Given, name) }

// Batch checks every option before anything is measured and plans the
// study: each mode on each CPU count, Count times over. The folder of
// Profile is not checked here: that is its writer's business.
func (o Options) Batch() (*Batch, error) {
	cpus, err := host.ParseCPUList(o.CPUs, o.MaxCPUs)
	if err != nil {
		return nil, fmt.Errorf("--cpus: %w", err)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	base := Spec{Load: Load{Load: results.Load{Par: o.Par, Dur: o.Dur, Warmup: o.Warmup}}, Steps: o.Steps}
	if o.Harness == "talk" {
		base.Harness = "talk"
	}
	switch {
	case o.given("rate"):
		base.Rate, base.MaxQ = o.Rate, o.MaxQ
	case o.given("interval"):
		base.Rate, base.MaxQ = float64(time.Second)/float64(o.Interval), o.MaxQ
	}
	if base.Steps.Clock, err = burn.ParseClock(o.Burn); err != nil {
		return nil, fmt.Errorf("--burn: %w", err)
	}
	st := &Batch{Specs: Plan(o.Modes, cpus, base), Count: o.Count, Profile: o.Profile}
	if o.Noisy == "retry" {
		st.Retry = DefaultRetry()
	}
	return st, nil
}

// check refuses values out of range and options that do not go
// together.
func (o Options) check() error {
	rate, interval := o.given("rate"), o.given("interval")
	switch {
	case o.Par < 0:
		return fmt.Errorf("--par %d: want 0 (one per CPU) or a positive number of customers", o.Par)
	case o.Dur <= 0:
		return fmt.Errorf("--dur %v: want a positive duration such as 2s", o.Dur)
	case o.Warmup < 0:
		return fmt.Errorf("--warmup %v: want zero or a positive duration such as 200ms", o.Warmup)
	case rate && interval:
		return fmt.Errorf("--rate and --interval: give one or the other, not both")
	case rate && o.Rate <= 0:
		return fmt.Errorf("--rate %v: want a positive number of orders per second, such as 800", o.Rate)
	case interval && o.Interval <= 0:
		return fmt.Errorf("--interval %v: want a positive duration such as 1.25ms", o.Interval)
	case o.given("maxq") && !rate && !interval:
		return fmt.Errorf("--maxq: only applies to an open loop; add --rate or --interval")
	case o.MaxQ < 0:
		return fmt.Errorf("--maxq %d: want 0 or more waiting orders", o.MaxQ)
	case o.Count < 1:
		return fmt.Errorf("--count %d: want 1 or more repetitions of each point", o.Count)
	case o.Harness != "brewput" && o.Harness != "talk":
		return fmt.Errorf("--harness %q: want brewput or talk", o.Harness)
	case o.Harness == "talk" && (rate || interval):
		return fmt.Errorf("--harness talk: the talk's harness is a closed loop; drop --rate and --interval")
	case rate && (o.Rate*o.Dur.Seconds() < 1 || o.Rate > float64(time.Second/MinInterval)):
		return fmt.Errorf("--rate %v: want %.6g to %.0f orders per second: at least one arrival in the --dur window (%v), and at most one every %v",
			o.Rate, 1/o.Dur.Seconds(), float64(time.Second/MinInterval), o.Dur, MinInterval)
	case interval && (o.Interval < MinInterval || o.Interval > o.Dur):
		return fmt.Errorf("--interval %v: want %v to the --dur window (%v)", o.Interval, MinInterval, o.Dur)
	case !o.Simulated && o.Par > MaxWorkers:
		drink := o.Steps.Grind + o.Steps.Press + o.Steps.Steam + o.Steps.Combine
		return fmt.Errorf("--par %d: want 0 to %d customers for a measurement: each one's order under way when the window closes finishes after it (%d drinks of %v on 1 CPU: %v more); brewput model simulates more",
			o.Par, MaxWorkers, o.Par, drink, (time.Duration(o.Par) * drink).Round(time.Second))
	case !o.Simulated && o.MaxQ > MaxQueue:
		return fmt.Errorf("--maxq %d: want 0 to %d waiting orders", o.MaxQ, MaxQueue)
	case !o.Simulated && o.Count > MaxRounds:
		return fmt.Errorf("--count %d: want 1 to %d rounds of the study", o.Count, MaxRounds)
	case o.Noisy != "" && o.Noisy != "retry" && o.Noisy != "ok":
		return fmt.Errorf("--noisy %q: want retry (measure a disturbed point again, up to 3 times, after waiting for a quiet machine) or ok (keep it, marked)", o.Noisy)
	}
	combine := "combine"
	if o.given("latte") {
		combine = "latte"
	}
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"grind", o.Steps.Grind}, {"press", o.Steps.Press}, {"steam", o.Steps.Steam}, {combine, o.Steps.Combine}, {"jitter", o.Steps.Jitter}} {
		if st.d < 0 {
			return fmt.Errorf("--%s %v: want zero or a positive duration such as 1ms", st.name, st.d)
		}
		if st.d > o.Dur {
			return fmt.Errorf("--%s %v: want at most the --dur window (%v): a step longer than the window completes no drink in it", st.name, st.d, o.Dur)
		}
	}
	return nil
}

// ParseModes reads a comma-separated list of modes; its error names
// --modes.
func ParseModes(list string) ([]coffee.Mode, error) {
	var modes []coffee.Mode
	for _, m := range strings.Split(list, ",") {
		mode, err := coffee.ParseMode(strings.TrimSpace(m))
		if err != nil {
			return nil, fmt.Errorf("--modes: %w", err)
		}
		modes = append(modes, mode)
	}
	return modes, nil
}

// One checks o for one mode (none: any, for a YAML system, whose file
// replaces it) on one CPU count, for the command named, whose errors give
// example as a count, and returns its point. o.Modes is not read.
func (o Options) One(mode, command string, example int) (Spec, error) {
	m := coffee.Mode{Family: "noop"}
	if strings.Contains(mode, ",") {
		return Spec{}, fmt.Errorf("--mode %q: %s takes one mode; run it once for each", mode, command)
	}
	if mode != "" {
		var err error
		if m, err = coffee.ParseMode(mode); err != nil {
			return Spec{}, fmt.Errorf("--mode: %w", err)
		}
	}
	o.Modes = []coffee.Mode{m}
	st, err := o.Batch()
	if err != nil {
		return Spec{}, err
	}
	if len(st.Specs) != 1 {
		return Spec{}, fmt.Errorf("--cpus %s: %s takes one CPU count, such as --cpus %d", o.CPUs, command, example)
	}
	return st.Specs[0], nil
}
