package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/brewput/brewput/burn"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// studyFlags are the flags that say what to measure and where to write it,
// shared by the root command and run.
type studyFlags struct {
	modes, cpus                        string
	par, maxq                          int
	rate                               float64
	dur, warmup, interval              time.Duration
	grind, press, steam, latte, jitter time.Duration
	burn                               string
	count                              int
	profile                            string
	harness                            string
	noisy                              string
	// simulated marks the model's commands, whose sizes the model's
	// memory budget bounds rather than a measurement's limits.
	simulated bool
}

// maxRounds is the most rounds (--count) a measured study takes: a
// thousand of the shortest points take minutes, of the default study
// hours.
const maxRounds = 1000

// studyDefaults are the defaults that differ between commands.
type studyDefaults struct {
	modes       string
	dur, warmup time.Duration
}

// defaultStudy is the talk's study: its main modes, 1 s a point.
func defaultStudy() studyDefaults {
	return studyDefaults{
		modes:  "ideal,locking,finelocking,parsteam,multi-2,linearpipe-0,linearpipe-1,linearpipe-10,multipipe-2",
		dur:    time.Second,
		warmup: 200 * time.Millisecond,
	}
}

func (f *studyFlags) register(fs *pflag.FlagSet, d studyDefaults) {
	ms := time.Millisecond
	fs.StringVar(&f.modes, "modes", d.modes, "comma-separated modes to measure (see brewput list)")
	fs.StringVar(&f.cpus, "cpus", fmt.Sprintf("1-%d", runtime.NumCPU()), "CPU counts, as a list and ranges such as 1,2 or 1-4")
	fs.IntVar(&f.par, "par", 0, "customers at once in a closed loop, servers in an open loop; 0 means one per CPU")
	f.dur, f.warmup = d.dur, d.warmup
	fs.Var((*cliflag.Duration)(&f.dur), "dur", "measured duration of each point")
	fs.Var((*cliflag.Duration)(&f.warmup), "warmup", "uncounted warm-up before each point")
	fs.Float64Var(&f.rate, "rate", 0, "open loop: orders arriving per second (default closed loop)")
	fs.Var((*cliflag.Duration)(&f.interval), "interval", "open loop: time between arrivals, instead of --rate")
	fs.IntVar(&f.maxq, "maxq", 1000, "open loop: most orders waiting; an arrival beyond it is dropped")
	f.grind, f.press, f.steam, f.latte = ms, ms, ms, ms
	fs.Var((*cliflag.Duration)(&f.grind), "grind", "CPU time of grinding the beans (grinder)")
	fs.Var((*cliflag.Duration)(&f.press), "press", "CPU time of pressing the espresso (espresso machine)")
	fs.Var((*cliflag.Duration)(&f.steam), "steam", "CPU time of steaming the milk (steamer)")
	fs.Var((*cliflag.Duration)(&f.latte), "latte", "CPU time of combining coffee and milk (no machine)")
	fs.Var((*cliflag.Duration)(&f.jitter), "jitter", "uniform jitter in [-j/2, +j/2] on the three machine steps")
	fs.StringVar(&f.burn, "burn", "wall", "how a step counts its time: wall (wall clock) or cpu (thread CPU time)")
	fs.IntVar(&f.count, "count", 1, "measure every point this many times, in rounds over the whole study (as go test -count), for compare's statistics")
	fs.StringVar(&f.harness, "harness", "brewput", "closed loop's harness: brewput (each customer orders again at once, records its own latency) or talk (the talk's: a generator hands requests to the customers over a channel, each hands its duration to an aggregator over another)")
	fs.StringVar(&f.profile, "profile", "", "write each point's execution trace and CPU, block and mutex profiles to this folder, and summarize where its goroutines waited")
	fs.StringVar(&f.noisy, "noisy", "retry", "a point other processes took more than 0.2 CPU from: retry (measure it again, up to 3 times, each after waiting up to 5 s for a quiet machine) or ok (keep the first measurement); either way it is marked")
}

// plan checks every flag before anything is measured; its errors are usage
// errors that name the flag and what it accepts.
//
// maxCPUs is the most CPUs a point may have: the machine's for a
// measurement, more for a model.
func (f *studyFlags) plan(fs *pflag.FlagSet, maxCPUs int) (*sweep.Study, error) {
	var modes []coffee.Mode
	for _, m := range strings.Split(f.modes, ",") {
		mode, err := coffee.ParseMode(strings.TrimSpace(m))
		if err != nil {
			return nil, fmt.Errorf("--modes: %w", err)
		}
		modes = append(modes, mode)
	}
	return f.planModes(fs, maxCPUs, modes)
}

// planModes is plan of the modes given, already read.
func (f *studyFlags) planModes(fs *pflag.FlagSet, maxCPUs int, modes []coffee.Mode) (*sweep.Study, error) {
	cpus, err := host.ParseCPUList(f.cpus, maxCPUs)
	if err != nil {
		return nil, fmt.Errorf("--cpus: %w", err)
	}
	base := sweep.Spec{Par: f.par, Dur: f.dur, Warmup: f.warmup}
	switch {
	case f.par < 0:
		return nil, fmt.Errorf("--par %d: want 0 (one per CPU) or a positive number of customers", f.par)
	case base.Dur <= 0:
		return nil, fmt.Errorf("--dur %v: want a positive duration such as 2s", base.Dur)
	case base.Warmup < 0:
		return nil, fmt.Errorf("--warmup %v: want zero or a positive duration such as 200ms", base.Warmup)
	case fs.Changed("rate") && fs.Changed("interval"):
		return nil, fmt.Errorf("--rate and --interval: give one or the other, not both")
	case fs.Changed("rate") && f.rate <= 0:
		return nil, fmt.Errorf("--rate %v: want a positive number of orders per second, such as 800", f.rate)
	case fs.Changed("interval") && f.interval <= 0:
		return nil, fmt.Errorf("--interval %v: want a positive duration such as 1.25ms", f.interval)
	case fs.Changed("maxq") && !fs.Changed("rate") && !fs.Changed("interval"):
		return nil, fmt.Errorf("--maxq: only applies to an open loop; add --rate or --interval")
	case f.maxq < 0:
		return nil, fmt.Errorf("--maxq %d: want 0 or more waiting orders", f.maxq)
	case f.count < 1:
		return nil, fmt.Errorf("--count %d: want 1 or more repetitions of each point", f.count)
	case f.harness != "brewput" && f.harness != "talk":
		return nil, fmt.Errorf("--harness %q: want brewput or talk", f.harness)
	case f.harness == "talk" && (fs.Changed("rate") || fs.Changed("interval")):
		return nil, fmt.Errorf("--harness talk: the talk's harness is a closed loop; drop --rate and --interval")
	case fs.Changed("rate") && (f.rate*base.Dur.Seconds() < 1 || f.rate > float64(time.Second/sweep.MinInterval)):
		return nil, fmt.Errorf("--rate %v: want %.6g to %.0f orders per second: at least one arrival in the --dur window (%v), and at most one every %v",
			f.rate, 1/base.Dur.Seconds(), float64(time.Second/sweep.MinInterval), base.Dur, sweep.MinInterval)
	case fs.Changed("interval") && (f.interval < sweep.MinInterval || f.interval > base.Dur):
		return nil, fmt.Errorf("--interval %v: want %v to the --dur window (%v)", f.interval, sweep.MinInterval, base.Dur)
	case !f.simulated && f.par > sweep.MaxWorkers:
		drink := f.grind + f.press + f.steam + f.latte
		return nil, fmt.Errorf("--par %d: want 0 to %d customers for a measurement: each one's order under way when the window closes finishes after it (%d drinks of %v on 1 CPU: %v more); brewput model simulates more",
			f.par, sweep.MaxWorkers, f.par, drink, (time.Duration(f.par) * drink).Round(time.Second))
	case !f.simulated && f.maxq > sweep.MaxQueue:
		return nil, fmt.Errorf("--maxq %d: want 0 to %d waiting orders", f.maxq, sweep.MaxQueue)
	case !f.simulated && f.count > maxRounds:
		return nil, fmt.Errorf("--count %d: want 1 to %d rounds of the study", f.count, maxRounds)
	case f.noisy != "" && f.noisy != "retry" && f.noisy != "ok":
		return nil, fmt.Errorf("--noisy %q: want retry (measure a disturbed point again, up to 3 times, after waiting for a quiet machine) or ok (keep it, marked)", f.noisy)
	}
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"grind", f.grind}, {"press", f.press}, {"steam", f.steam}, {"latte", f.latte}, {"jitter", f.jitter}} {
		if st.d > base.Dur {
			return nil, fmt.Errorf("--%s %v: want at most the --dur window (%v): a step longer than the window completes no drink in it", st.name, st.d, base.Dur)
		}
	}
	if f.harness == "talk" {
		base.Harness = "talk"
	}
	switch {
	case fs.Changed("rate"):
		base.Rate, base.MaxQ = f.rate, f.maxq
	case fs.Changed("interval"):
		base.Rate, base.MaxQ = float64(time.Second)/float64(f.interval), f.maxq
	}

	base.Steps = coffee.Steps{Grind: f.grind, Press: f.press, Steam: f.steam, Combine: f.latte, Jitter: f.jitter}
	if err := base.Steps.Validate(); err != nil {
		return nil, fmt.Errorf("--%w", err)
	}
	if base.Steps.Clock, err = burn.ParseClock(f.burn); err != nil {
		return nil, fmt.Errorf("--burn: %w", err)
	}

	if fs.Changed("profile") {
		if err := checkProfileDir(f.profile); err != nil {
			return nil, err
		}
	}

	st := &sweep.Study{Specs: sweep.Plan(modes, cpus, base), Count: f.count, Profile: f.profile}
	if f.noisy == "retry" {
		st.Retry = sweep.DefaultRetry()
	}
	return st, nil
}

// checkProfileDir tells, before anything is measured, whether --profile's
// folder can take the files: it exists and is writable, or can be made.
// It creates nothing.
func checkProfileDir(dir string) error {
	if dir == "" {
		return fmt.Errorf("--profile: want a folder for the profiles, such as prof")
	}
	// report.CheckDir would say "for the report" of a file in the way.
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return fmt.Errorf("--profile %s: is a file; want a folder for the profiles", dir)
	}
	if err := report.CheckDir(dir); err != nil {
		return fmt.Errorf("--profile %s: %w", dir, err)
	}
	return nil
}

// registerOne adds to cmd those of the study's flags named, with d's
// defaults, for a command that looks at one point: --cpus is one count,
// the machine's unless given.
func (f *studyFlags) registerOne(cmd *cobra.Command, d studyDefaults, cpusUsage string, names ...string) {
	all := pflag.NewFlagSet("study", pflag.ContinueOnError)
	f.register(all, d)
	for _, name := range append([]string{"cpus"}, names...) {
		cmd.Flags().AddFlag(all.Lookup(name))
	}
	setDefault(cmd, "cpus", fmt.Sprint(runtime.NumCPU()), cpusUsage)
}

// setDefault makes value the default of cmd's flag name, with usage.
func setDefault(cmd *cobra.Command, name, value, usage string) {
	f := cmd.Flags().Lookup(name)
	f.Usage, f.DefValue = usage, value
	cmd.Flags().Set(name, value)
	f.Changed = false
}

// planOne is plan of one mode (none: any, for a YAML system, whose file
// replaces it) on one CPU count, for the command named, whose errors give
// an example count.
func (f *studyFlags) planOne(fs *pflag.FlagSet, maxCPUs int, mode, command string, example int) (sweep.Spec, error) {
	m := coffee.Mode{Family: "noop"}
	if strings.Contains(mode, ",") {
		return sweep.Spec{}, fmt.Errorf("--mode %q: %s takes one mode; run it once for each", mode, command)
	}
	if mode != "" {
		var err error
		if m, err = coffee.ParseMode(mode); err != nil {
			return sweep.Spec{}, fmt.Errorf("--mode: %w", err)
		}
	}
	st, err := f.planModes(fs, maxCPUs, []coffee.Mode{m})
	if err != nil {
		return sweep.Spec{}, err
	}
	if len(st.Specs) != 1 {
		return sweep.Spec{}, fmt.Errorf("--cpus %s: %s takes one CPU count, such as --cpus %d", f.cpus, command, example)
	}
	return st.Specs[0], nil
}
