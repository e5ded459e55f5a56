// Package modelcli is brewput model, and brewput schedule of the model,
// apart from cobra: their flags, with the flags of the shop's studies they
// share with the measuring commands, and their run from a command line to
// what they print. The driver makes its commands of them; the playground's
// engine runs the same code on a bare flag set (Playground), so that the
// page's answers are the CLI's.
package modelcli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// ModelFlags are brewput model's own flags, beside the study's: the
// predict options, and the YAML file.
type ModelFlags struct {
	predict.Options
	causal bool // brewput model only
	File   string
}

// Register adds the model's flags to fs.
func (f *ModelFlags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.File, "model", "", "simulate the system described in this YAML file\n(see examples/) instead of the coffee shop's modes")
	fs.Uint64Var(&f.Seed, "seed", 1, "seed of the random step durations\n(--jitter); the same seed gives the same output")
	f.RegisterPolicy(fs)
	f.MaxMem = host.MemoryBudget()
	fs.Var((*cliflag.Bytes)(&f.MaxMem), "max-mem", "most memory the simulations may take\n(estimated before they start): a size such as 4GB (default half this machine's memory)")
	fs.Lookup("max-mem").DefValue = "" // the machine's, said in the usage
	c := &f.Costs
	for _, cf := range []struct {
		name, usage string
		into        *time.Duration
	}{
		{"switch", "goroutine switch cost", &c.Switch},
		{"wake", "idle-P wake-up cost", &c.Wake},
		{"spin-wake", "cost of a spinning idle P\ntaking a goroutine", &c.SpinWake},
		{"spin-window", "how long an idle P spins\nbefore it sleeps", &c.SpinWindow},
		{"mutex-handoff", "cost of an Unlock that wakes a waiter", &c.MutexHandoff},
		{"chan-handoff", "cost of an unbuffered channel handoff", &c.ChanHandoff},
		{"buf-chan-handoff", "cost of a buffered channel handoff", &c.BufChanHandoff},
		{"runnext-grace", "how long a P waits before stealing\nanother P's runnext goroutine", &c.RunnextGrace},
		{"mutex-spin", "one spin of a Lock on a held mutex\n(0: Lock never spins)", &c.MutexSpin},
		{"runtime-lock", "hold of the runtime's own lock\n(for a channel operation or a semaphore's queue)", &c.RuntimeLock},
		{"transfer", "a cache line's move between two cores\nof a socket", &c.Transfer.Socket},
	} {
		fs.Var((*cliflag.Duration)(cf.into), cf.name, "go policy: "+cf.usage+"\n(instead of the calibration's)")
	}
}

// RegisterPolicy adds --sched, --calibration and --machine.
func (f *ModelFlags) RegisterPolicy(fs *pflag.FlagSet) {
	fs.StringVar(&f.Sched, "sched", model.DefaultSched, "scheduling policy: go or fifo\n(go: the Go runtime's scheduler, with its measured costs; fifo: idealized CPUs, free handoffs)")
	fs.StringVar(&f.Calibration, "calibration", "", "file of the go policy's costs\n(from brewput calibrate; default: the user's config folder; measured if missing, and saved there if the machine was quiet)")
	fs.StringVar(&f.Machine, "machine", "", "go policy: the machine predicted for:\nthis or unknown"+
		" (default: this one where no point has more CPUs than it has, else an unknown one of the most CPUs asked, its band spanning what published machines show)")
}

// RegisterOthers adds the flags of other processes on the simulated machine.
func (f *ModelFlags) RegisterOthers(fs *pflag.FlagSet) {
	fs.Float64Var(&f.Others, "others", 0, "go policy: other processes' work, in CPUs\n(such as 0.5): it takes CPUs from the program only while the program keeps every CPU busy (default none)")
	f.OthersBurst = time.Millisecond
	fs.Var((*cliflag.Duration)(&f.OthersBurst), "others-burst", "go policy: --others' burst length\n(how long each burst of the other processes' work lasts)")
}

// PredictOptions are the model flags as the predict package takes them.
func (f *ModelFlags) PredictOptions(fs *pflag.FlagSet) predict.Options {
	o := f.Options
	o.PointsOnly = !f.causal
	for _, name := range append(predict.CostNames(), "calibration", "machine") {
		if fs.Changed(name) {
			o.Given = append(o.Given, name)
		}
	}
	return o
}

// ModelCommand is brewput model apart from cobra; Answer writes --format
// compact (the points in full where nil).
type ModelCommand struct {
	sf              StudyFlags
	mf              ModelFlags
	format, outFile string
	Answer          func(w io.Writer, points []results.Point) error
}

// Register adds the command's flags to fs.
func (c *ModelCommand) Register(fs *pflag.FlagSet) {
	c.sf.Register(fs, time.Second, 100*time.Millisecond)
	SetDefault(fs, "cpus", fmt.Sprintf("1-%d", PredictCPUs()), fs.Lookup("cpus").Usage)
	// A measurement's flags, refused here.
	fs.MarkHidden("noisy")
	fs.MarkHidden("profile")
	fs.Lookup("count").Usage = "simulate every point this many times\n(each with the next --seed, which changes only what is drawn at random: --jitter, the go policy's start states and sysmon's phase); under fifo without --jitter the rows are the same"
	c.mf.Register(fs)
	c.mf.RegisterOthers(fs)
	fs.BoolVar(&c.mf.Band, "band", true, "go policy: each point's band\n(each point simulated also at the edges of the costs' confidence intervals, and the band of throughput and median latency they span)")
	fs.BoolVar(&c.mf.causal, "causal", true, "give each point its causal profile\n(what limits it, found by relieving each resource in turn and simulating again; false: the points alone, one simulation each, several times faster, and no limit named)")
	RegisterOutput(fs, &c.format, &c.outFile, "simulated")
	SetDefault(fs, "format", CompactFormat, "compact|table|"+strings.Join(results.Formats()[1:], "|")+"\n(the output's format: compact, the answer, on the CPU counts where the picture changes which modes make the most and what limits each, then each mode's points summarized; table, every point in full; the others with --out, guessed from its extension)")
}

// Run runs the command of the flags fs parsed, in e.
func (c *ModelCommand) Run(ctx context.Context, fs *pflag.FlagSet, e Env) error {
	sf, mf := &c.sf, &c.mf
	sf.Simulated, mf.Measure = true, e.Measure
	st, err := sf.Plan(fs, host.ModelMaxCPUs)
	if err != nil {
		return err
	}
	mf.MaxCPUs = slices.Max(st.CPUs())
	for _, name := range []string{"profile", "noisy"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s: applies to measurements only; the model's steps take virtual time", name)
		}
	}
	// Everything given is checked before the costs are looked for, which
	// may mean measuring them.
	var bp *blueprint.Blueprint
	if mf.File != "" {
		if bp, err = LoadBlueprint(fs, mf.File); err != nil {
			return err
		}
		if err := orderFits(bp, st); err != nil {
			return err
		}
	}
	var total int
	if err := FitWindow(fs, st.Specs, bp, e.Tell, func() (err error) {
		total, err = predict.Check(mf.PredictOptions(fs), st, bp, "--modes")
		return err
	}); err != nil {
		return err
	}
	TellUnused(e.Tell, bp)
	out, err := e.CompactOutput(fs, c.format, c.outFile, results.Plan{Command: "model", Points: total}, c.Answer)
	if err != nil {
		return err
	}
	if !mf.causal {
		out.Annotate = nil // the points stay as simulated: no limit named
	}
	pr, err := predict.Resolve(ctx, mf.PredictOptions(fs), e.Tell)
	if err != nil {
		return err
	}
	add := out.Add
	finish := func() {}
	if e.Progress != nil {
		var done func([]results.Point)
		done, finish = e.Progress(st)
		var got []results.Point
		add = func(p *results.Point) error {
			got = append(got, *p)
			done(got)
			return out.Add(p)
		}
	}
	points, err := pr.Run(ctx, st, bp, add)
	finish() // the bar goes before the table comes
	// The full table's caption: which model, its costs, how far to trust them.
	if out.View == nil && len(points) > 0 && out.Format == results.Table {
		fmt.Fprintln(e.Stdout, format.Wrap(pr.Describe()+stepsText(pr.Sched, sf.burn, bp != nil), format.Width(e.Stdout), "  "))
	}
	if ferr := out.Finish(points, err == nil); ferr != nil {
		return exitcode.Failure{Err: ferr}
	}
	return exitcode.Ended(err, len(points), total, "points", "what was simulated")
}

// FitWindow checks specs with check. A blueprint's window, where the user
// set none, is blueprint.Window's, halved while check refuses it, down to
// a tenth of it, and said; where the user set --dur alone, its warm-up is
// blueprint.Warmup's, and said.
func FitWindow(fs *pflag.FlagSet, specs []shopsweep.Spec, bp *blueprint.Blueprint, tell func(line string), check func() error) error {
	if bp != nil && fs.Changed("dur") && !fs.Changed("warmup") {
		l := specs[0].Load
		if w := bp.Warmup(l.Dur, l.Warmup); w < l.Warmup {
			for i := range specs {
				specs[i].Load.Warmup = w
			}
			tell(text.ModelWarmup(bp.Name, w, l.Dur))
		}
	}
	if bp == nil || fs.Changed("dur") || fs.Changed("warmup") {
		return check()
	}
	l := specs[0].Load
	dur, warmup, scaled := bp.Window(l.Dur, l.Warmup)
	orders, halved := blueprint.WindowOrders, false
	for {
		for i := range specs {
			specs[i].Load.Dur, specs[i].Load.Warmup = dur, warmup
		}
		err := check()
		if err != nil && scaled && orders/2 >= blueprint.WindowOrders/10 {
			dur, warmup, orders, halved = dur/2, warmup/2, orders/2, true
			continue
		}
		if err == nil && scaled {
			tell(text.ModelWindow(bp.Name, dur, warmup, orders, halved))
		}
		return err
	}
}

// LoadBlueprint reads the YAML model in path, refusing the study flags that
// belong to the coffee shop's modes: the file says its own steps and load.
func LoadBlueprint(fs *pflag.FlagSet, path string) (*blueprint.Blueprint, error) {
	for _, name := range []string{"modes", "grind", "press", "steam", "combine", "latte", "jitter", "burn", "maxq", "harness"} {
		if fs.Changed(name) {
			return nil, fmt.Errorf("--%s: applies to the coffee shop's modes, not to --model %s (its file says its steps and load)", name, path)
		}
	}
	bp, err := blueprint.Load(path)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	return bp, nil
}

// TellUnused names, in a line, the first three resources of bp no step uses.
func TellUnused(tell func(line string), bp *blueprint.Blueprint) {
	if bp == nil {
		return
	}
	if unused := bp.Unused(); len(unused) > 0 {
		tell(text.Unused(bp.Name, unused))
	}
}

// PredictCPUs is how far the main job's predictions go: 8 CPUs or more.
func PredictCPUs() int { return max(8, runtime.NumCPU()) }

// stepsText says, under the go policy, how the shop's steps counted time.
func stepsText(sched, clock string, yaml bool) string {
	if sched != "go" || yaml {
		return ""
	}
	return text.StepsBurn(clock)
}

// orderFits refuses a YAML system whose order takes longer than --dur.
func orderFits(bp *blueprint.Blueprint, st *shopsweep.Batch) error {
	s, err := bp.Structure(1, 1)
	if err != nil || len(st.Specs) == 0 {
		return nil // refused later, as it is
	}
	path, dur := time.Duration(s.Path*float64(time.Second)), st.Specs[0].Dur
	if path > dur {
		return fmt.Errorf("--dur %v: want at least an order's time in --model %s (%v, its steps one after another): no order would complete in the window", dur, bp.File, path)
	}
	return nil
}
