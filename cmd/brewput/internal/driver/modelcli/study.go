package modelcli

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/measure/burn"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// LoadFlags are the flags of a study's load, the shop's or a program's.
type LoadFlags struct {
	CPUs         string
	results.Load // Par, Dur and Warmup; Rate and MaxQ as given
	interval     time.Duration
	Count        int
	Profile      string
	Noisy        string
	words        LoadWords
}

// LoadWords are what a load's usage and errors call its parts.
type LoadWords struct {
	who, what      string // customers and orders
	rate, interval string // examples of --rate and --interval
	count, profile string // the ends of --count's and --profile's usage
}

var (
	shopWords = LoadWords{who: "customers", what: "orders", rate: "800", interval: "1.25ms",
		count: " over the whole study", profile: ", and summarize where its goroutines waited"}
	StudyWords = LoadWords{who: "workers", what: "calls", rate: "10000", interval: "100us"}
)

// Register adds the load's flags to fs, w naming its parts, dur and
// warmup their defaults.
func (f *LoadFlags) Register(fs *pflag.FlagSet, w LoadWords, dur, warmup time.Duration) {
	f.words = w
	fs.StringVar(&f.CPUs, "cpus", fmt.Sprintf("1-%d", runtime.NumCPU()), "CPU counts, such as 1,2 or 1-4")
	fs.IntVar(&f.Par, "par", 0, w.who+" at once, 0 for one per CPU\n(in an open loop: servers)")
	f.Dur, f.Warmup = dur, warmup
	fs.Var((*cliflag.Duration)(&f.Dur), "dur", "measured duration of each point")
	fs.Var((*cliflag.Duration)(&f.Warmup), "warmup", "warm-up before each point")
	fs.Float64Var(&f.Rate, "rate", 0, "open loop: "+w.what+" arriving per second\n(default closed loop)")
	fs.Var((*cliflag.Duration)(&f.interval), "interval", "open loop: time between arrivals\n(instead of --rate)")
	fs.IntVar(&f.MaxQ, "maxq", 1000, "open loop: most "+w.what+" waiting\n(an arrival beyond is dropped)")
	fs.IntVar(&f.Count, "count", 1, "how many times to measure each point\n(as go test -count), in rounds"+w.count+", for compare's statistics")
	fs.StringVar(&f.Profile, "profile", "", "folder for each point's trace and profiles\n(its execution trace and CPU, block and mutex profiles)"+w.profile)
	RegisterNoisy(fs, &f.Noisy)
}

// maxPointDur is the longest window (or warm-up) of a point: far past any
// study's need, short enough that a sweep's estimate cannot overflow.
const maxPointDur = 24 * time.Hour

// Check refuses a load out of range, or flags that do not go together,
// and returns the load (an open loop's from --rate or --interval).
func (f *LoadFlags) Check(fs *pflag.FlagSet) (results.Load, error) {
	w, rate, interval := f.words, fs.Changed("rate"), fs.Changed("interval")
	switch {
	case f.Par < 0:
		return results.Load{}, fmt.Errorf("--par %d: want 0 (one per CPU) or a positive number of %s", f.Par, w.who)
	case f.Dur <= 0:
		return results.Load{}, fmt.Errorf("--dur %v: want a positive duration such as 2s", f.Dur)
	case f.Dur > maxPointDur:
		return results.Load{}, fmt.Errorf("--dur %v: want at most %v a point", f.Dur, maxPointDur)
	case f.Warmup < 0:
		return results.Load{}, fmt.Errorf("--warmup %v: want zero or a positive duration such as 200ms", f.Warmup)
	case f.Warmup > maxPointDur:
		return results.Load{}, fmt.Errorf("--warmup %v: want at most %v", f.Warmup, maxPointDur)
	case rate && interval:
		return results.Load{}, errors.New("--rate and --interval: give one or the other, not both")
	case rate && f.Rate <= 0:
		return results.Load{}, fmt.Errorf("--rate %v: want a positive number of %s per second, such as %s", f.Rate, w.what, w.rate)
	case interval && f.interval <= 0:
		return results.Load{}, fmt.Errorf("--interval %v: want a positive duration such as %s", f.interval, w.interval)
	case fs.Changed("maxq") && !rate && !interval:
		return results.Load{}, errors.New("--maxq: only applies to an open loop; add --rate or --interval")
	case f.MaxQ < 0:
		return results.Load{}, fmt.Errorf("--maxq %d: want 0 or more waiting %s", f.MaxQ, w.what)
	case f.Count < 1:
		return results.Load{}, fmt.Errorf("--count %d: want 1 or more repetitions of each point", f.Count)
	}
	l := results.Load{Par: f.Par, Dur: f.Dur, Warmup: f.Warmup}
	switch {
	case rate:
		l.Rate, l.MaxQ = f.Rate, f.MaxQ
	case interval:
		l.Rate, l.MaxQ = float64(time.Second)/float64(f.interval), f.MaxQ
	}
	return l, nil
}

// RegisterNoisy adds --noisy: what to do with a point others disturbed.
func RegisterNoisy(fs *pflag.FlagSet, noisy *string) {
	ChoiceVar(fs, noisy, "noisy", "retry", fmt.Sprintf("a disturbed point: retry or ok\n(a point from whose CPUs other processes took more than %g CPU: retry measures it again, up to 3 times, each after waiting up to 5 s for a quiet machine; ok keeps the first measurement); either way it is marked", results.DisturbedCPUs),
		"retry (measure a disturbed point again, up to 3 times, after waiting for a quiet machine) or ok (keep it, marked)", "retry", "ok")
}

// RetryOf is what --noisy says, as a sweep.Retry.
func RetryOf(noisy string) sweep.Retry {
	if noisy == "ok" {
		return sweep.Retry{}
	}
	return sweep.DefaultRetry()
}

// maxRounds is the most rounds (--count) a measured study takes.
const maxRounds = 1000

// StudyFlags say what a study of the shop measures: its load, modes and
// steps; Simulated, for the model, bounded by its memory budget rather
// than a measurement's limits.
type StudyFlags struct {
	LoadFlags
	modes, burn string
	steps       coffee.Steps
	Simulated   bool
}

// DefaultModes are those the families declare in the default study.
func DefaultModes() string {
	var names []string
	for _, f := range coffee.Families() {
		for _, u := range f.Usual {
			if u.Study {
				names = append(names, coffee.Mode{Family: f.Name, N: u.N}.String())
			}
		}
	}
	return strings.Join(names, ",")
}

// Register adds the study's flags to fs, dur and warmup the defaults of
// --dur and --warmup.
func (f *StudyFlags) Register(fs *pflag.FlagSet, dur, warmup time.Duration) {
	f.LoadFlags.Register(fs, shopWords, dur, warmup)
	fs.StringVar(&f.modes, "modes", DefaultModes(), "comma-separated modes to measure (brewput list);\nby default "+
		strings.ReplaceAll(DefaultModes(), ",", ", "))
	// The default is said in the usage, where it wraps as one token cannot.
	fs.Lookup("modes").DefValue = ""
	s := &f.steps
	*s = coffee.DefaultSteps()
	fs.Var((*cliflag.Duration)(&s.Grind), "grind", "CPU time of grinding the beans\n(grinder)")
	fs.Var((*cliflag.Duration)(&s.Press), "press", "CPU time of pressing the espresso\n(espresso machine)")
	fs.Var((*cliflag.Duration)(&s.Steam), "steam", "CPU time of steaming the milk\n(steamer)")
	fs.Var((*cliflag.Duration)(&s.Combine), "combine", "CPU time of combining the latte\n(coffee and milk; no machine)")
	fs.Var((*cliflag.Duration)(&s.Combine), "latte", "the older name of --combine")
	fs.MarkHidden("latte") // still read, so that no command line breaks; help lists one name a step
	fs.Var((*cliflag.Duration)(&s.Jitter), "jitter", "uniform jitter on the three machine steps\n(in [-j/2, +j/2])")
	fs.StringVar(&f.burn, "burn", "wall", "a step's time: wall or cpu\n(wall clock or thread CPU time)")
	ChoiceVar(fs, &f.Harness, "harness", "brewput", "the harness: brewput or talk\n(of a closed loop; brewput: each customer orders again at once, records its own latency; talk, the talk's: a generator hands requests to the customers over a channel, each hands its duration to an aggregator over another)", "brewput or talk", "brewput", "talk")
}

// Plan checks every flag but --profile's folder (a measurement's, which
// checks it) before anything is measured or simulated, and plans each
// mode on each CPU count, at most maxCPUs.
func (f *StudyFlags) Plan(fs *pflag.FlagSet, maxCPUs int) (*shopsweep.Batch, error) {
	var modes []coffee.Mode
	for _, m := range strings.Split(f.modes, ",") {
		mode, err := coffee.ParseMode(strings.TrimSpace(m))
		if err != nil {
			return nil, fmt.Errorf("--modes: %w", err)
		}
		modes = append(modes, mode)
	}
	return f.batch(fs, modes, maxCPUs)
}

// PlanOne is Plan of one mode ("": any, for a YAML system) on one CPU
// count, for command, whose errors give example as a count.
func (f *StudyFlags) PlanOne(fs *pflag.FlagSet, maxCPUs int, mode, command string, example int) (shopsweep.Spec, error) {
	m := coffee.Mode{Family: "noop"}
	if strings.Contains(mode, ",") {
		return shopsweep.Spec{}, fmt.Errorf("--mode %q: %s takes one mode; run it once for each", mode, command)
	}
	if mode != "" {
		var err error
		if m, err = coffee.ParseMode(mode); err != nil {
			return shopsweep.Spec{}, fmt.Errorf("--mode: %w", err)
		}
	}
	st, err := f.batch(fs, []coffee.Mode{m}, maxCPUs)
	if err != nil {
		return shopsweep.Spec{}, err
	}
	if len(st.Specs) != 1 {
		return shopsweep.Spec{}, fmt.Errorf("--cpus %s: %s takes one CPU count, such as --cpus %d", f.CPUs, command, example)
	}
	return st.Specs[0], nil
}

// batch checks the flags and plans modes on each CPU count.
func (f *StudyFlags) batch(fs *pflag.FlagSet, modes []coffee.Mode, maxCPUs int) (*shopsweep.Batch, error) {
	cpus, err := host.ParseCPUList(f.CPUs, maxCPUs)
	if err != nil {
		return nil, fmt.Errorf("--cpus: %w", err)
	}
	l, err := f.Check(fs)
	if err != nil {
		return nil, err
	}
	if err := f.checkShop(fs); err != nil {
		return nil, err
	}
	if f.Harness == "talk" {
		l.Harness = "talk"
	}
	base := shopsweep.Spec{Load: sweep.Load{Load: l}, Steps: f.steps}
	if base.Steps.Clock, err = burn.ParseClock(f.burn); err != nil {
		return nil, fmt.Errorf("--burn: %w", err)
	}
	return &shopsweep.Batch{Specs: shopsweep.Plan(modes, cpus, base), Count: f.Count, Profile: f.Profile, Retry: RetryOf(f.Noisy)}, nil
}

// checkShop refuses what check leaves to the shop: an open loop past the
// dispatcher, a measurement past its limits, a step out of range.
func (f *StudyFlags) checkShop(fs *pflag.FlagSet) error {
	rate, interval, dur := fs.Changed("rate"), fs.Changed("interval"), f.Dur
	switch {
	case f.Harness == "talk" && (rate || interval):
		return fmt.Errorf("--harness talk: the talk's harness is a closed loop; drop --rate and --interval")
	case rate && (f.Rate*dur.Seconds() < 1 || f.Rate > float64(time.Second/sweep.MinInterval)):
		return fmt.Errorf("--rate %v: want %.6g to %.0f orders per second: at least one arrival in the --dur window (%v), and at most one every %v",
			f.Rate, 1/dur.Seconds(), float64(time.Second/sweep.MinInterval), dur, sweep.MinInterval)
	case interval && (f.interval < sweep.MinInterval || f.interval > dur):
		return fmt.Errorf("--interval %v: want %v to the --dur window (%v)", f.interval, sweep.MinInterval, dur)
	case !f.Simulated && f.Par > sweep.MaxWorkers:
		drink := f.steps.Grind + f.steps.Press + f.steps.Steam + f.steps.Combine
		return fmt.Errorf("--par %d: want 0 to %d customers for a measurement: each one's order under way when the window closes finishes after it (%d drinks of %v on 1 CPU: %v more); brewput model simulates more",
			f.Par, sweep.MaxWorkers, f.Par, drink, (time.Duration(f.Par) * drink).Round(time.Second))
	case !f.Simulated && f.MaxQ > sweep.MaxQueue:
		return fmt.Errorf("--maxq %d: want 0 to %d waiting orders", f.MaxQ, sweep.MaxQueue)
	case !f.Simulated && f.Count > maxRounds:
		return fmt.Errorf("--count %d: want 1 to %d rounds of the study", f.Count, maxRounds)
	}
	combine := "combine"
	if fs.Changed("latte") {
		combine = "latte"
	}
	s := f.steps
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"grind", s.Grind}, {"press", s.Press}, {"steam", s.Steam}, {combine, s.Combine}, {"jitter", s.Jitter}} {
		if fs.Changed("model") && !fs.Changed(st.name) {
			continue // the shop's default step, which a --model run does not simulate
		}
		switch {
		case st.d < 0:
			return fmt.Errorf("--%s %v: want zero or a positive duration such as 1ms", st.name, st.d)
		case st.d > dur:
			return fmt.Errorf("--%s %v: want at most the --dur window (%v): a step longer than the window completes no drink in it", st.name, st.d, dur)
		}
	}
	return nil
}

// RegisterOne adds to fs, for a command of one point, the study's flags
// of its load and steps, and those named: --cpus one count, a warm-up of
// 100ms, dur the default --dur.
func (f *StudyFlags) RegisterOne(fs *pflag.FlagSet, dur time.Duration, cpusUsage string, names ...string) {
	all := pflag.NewFlagSet("study", pflag.ContinueOnError)
	f.Register(all, dur, 100*time.Millisecond)
	for _, name := range append([]string{"cpus", "par", "rate", "interval", "maxq", "grind", "press", "steam", "combine", "latte", "jitter", "warmup"}, names...) {
		fs.AddFlag(all.Lookup(name))
	}
	SetDefault(fs, "cpus", fmt.Sprint(runtime.NumCPU()), cpusUsage)
}

// SetDefault makes value the default of fs's flag name, with usage.
func SetDefault(fs *pflag.FlagSet, name, value, usage string) {
	f := fs.Lookup(name)
	f.Usage, f.DefValue = usage, value
	fs.Set(name, value)
	f.Changed = false
}
