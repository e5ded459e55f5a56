package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/brewput/brewput/internal/profile"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/measure/sweep"
)

// studyFlags are the flags that say what to measure and where to write it,
// shared by the root command and run: sweep.Options, bound to the flags,
// and the modes as given.
type studyFlags struct {
	modes string
	sweep.Options
}

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
	fs.StringVar(&f.CPUs, "cpus", fmt.Sprintf("1-%d", runtime.NumCPU()), "CPU counts, as a list and ranges such as 1,2 or 1-4")
	fs.IntVar(&f.Par, "par", 0, "customers at once in a closed loop, servers in an open loop; 0 means one per CPU")
	f.Dur, f.Warmup = d.dur, d.warmup
	fs.Var((*cliflag.Duration)(&f.Dur), "dur", "measured duration of each point")
	fs.Var((*cliflag.Duration)(&f.Warmup), "warmup", "uncounted warm-up before each point")
	fs.Float64Var(&f.Rate, "rate", 0, "open loop: orders arriving per second (default closed loop)")
	fs.Var((*cliflag.Duration)(&f.Interval), "interval", "open loop: time between arrivals, instead of --rate")
	fs.IntVar(&f.MaxQ, "maxq", 1000, "open loop: most orders waiting; an arrival beyond it is dropped")
	s := &f.Steps
	s.Grind, s.Press, s.Steam, s.Combine = ms, ms, ms, ms
	fs.Var((*cliflag.Duration)(&s.Grind), "grind", "CPU time of grinding the beans (grinder)")
	fs.Var((*cliflag.Duration)(&s.Press), "press", "CPU time of pressing the espresso (espresso machine)")
	fs.Var((*cliflag.Duration)(&s.Steam), "steam", "CPU time of steaming the milk (steamer)")
	fs.Var((*cliflag.Duration)(&s.Combine), "combine", "CPU time of combining coffee and milk (no machine)")
	fs.Var((*cliflag.Duration)(&s.Combine), "latte", "the older name of --combine")
	fs.MarkHidden("latte") // still read, so that no command line breaks; help lists one name a step
	fs.Var((*cliflag.Duration)(&s.Jitter), "jitter", "uniform jitter in [-j/2, +j/2] on the three machine steps")
	fs.StringVar(&f.Burn, "burn", "wall", "how a step counts its time: wall (wall clock) or cpu (thread CPU time)")
	fs.IntVar(&f.Count, "count", 1, "measure every point this many times, in rounds over the whole study (as go test -count), for compare's statistics")
	fs.StringVar(&f.Harness, "harness", "brewput", "closed loop's harness: brewput (each customer orders again at once, records its own latency) or talk (the talk's: a generator hands requests to the customers over a channel, each hands its duration to an aggregator over another)")
	fs.StringVar(&f.Profile, "profile", "", "write each point's execution trace and CPU, block and mutex profiles to this folder, and summarize where its goroutines waited")
	registerNoisy(fs, &f.Noisy)
}

// registerNoisy adds --noisy: what a measurement does with a point that
// others disturbed (retryOf).
func registerNoisy(fs *pflag.FlagSet, noisy *string) {
	fs.StringVar(noisy, "noisy", "retry", "a point other processes took more than 0.2 CPU from: retry (measure it again, up to 3 times, each after waiting up to 5 s for a quiet machine) or ok (keep the first measurement); either way it is marked")
}

// retryOf is what --noisy says, as a sweep.Retry.
func retryOf(noisy string) (sweep.Retry, error) {
	switch noisy {
	case "retry":
		return sweep.DefaultRetry(), nil
	case "ok":
		return sweep.Retry{}, nil
	}
	return sweep.Retry{}, fmt.Errorf("--noisy %q: want retry (measure a disturbed point again, up to 3 times, after waiting for a quiet machine) or ok (keep it, marked)", noisy)
}

// options are the study's flags as sweep.Options, with at most maxCPUs
// CPUs a point: the machine's for a measurement, more for a model.
func (f *studyFlags) options(fs *pflag.FlagSet, maxCPUs int) sweep.Options {
	o := f.Options
	o.MaxCPUs, o.Given = maxCPUs, nil
	for _, name := range []string{"rate", "interval", "maxq", "profile", "latte"} {
		if fs.Changed(name) {
			o.Given = append(o.Given, name)
		}
	}
	return o
}

// plan checks every flag before anything is measured (sweep.Options.Study,
// then --profile's folder); its errors are usage errors that name the flag
// and what it accepts.
func (f *studyFlags) plan(fs *pflag.FlagSet, maxCPUs int) (*sweep.Batch, error) {
	o := f.options(fs, maxCPUs)
	var err error
	if o.Modes, err = sweep.ParseModes(f.modes); err != nil {
		return nil, err
	}
	st, err := o.Batch()
	if err != nil {
		return nil, err
	}
	if fs.Changed("profile") {
		if err := profile.CheckDir(f.Profile); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// registerOne adds to fs those of the study's flags named, with d's
// defaults, for a command that looks at one point: --cpus is one count,
// the machine's unless given.
func (f *studyFlags) registerOne(fs *pflag.FlagSet, d studyDefaults, cpusUsage string, names ...string) {
	all := pflag.NewFlagSet("study", pflag.ContinueOnError)
	f.register(all, d)
	for _, name := range append([]string{"cpus"}, names...) {
		fs.AddFlag(all.Lookup(name))
	}
	setDefault(fs, "cpus", fmt.Sprint(runtime.NumCPU()), cpusUsage)
}

// setDefault makes value the default of fs's flag name, with usage.
func setDefault(fs *pflag.FlagSet, name, value, usage string) {
	f := fs.Lookup(name)
	f.Usage, f.DefValue = usage, value
	fs.Set(name, value)
	f.Changed = false
}

// planOne is plan of one mode on one CPU count (sweep.Options.One).
func (f *studyFlags) planOne(fs *pflag.FlagSet, maxCPUs int, mode, command string, example int) (sweep.Spec, error) {
	return f.options(fs, maxCPUs).One(mode, command, example)
}
