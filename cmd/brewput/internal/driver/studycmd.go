package driver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/mainjob"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/studyjob"
	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/stats"
)

// newStudyCmd is brewput study PKG [command] [flags]: it builds the study
// program PKG and runs its command.
func newStudyCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:                "study PKG [command] [flags]",
		Short:              "Your own design: a study program's variants, measured, explained",
		DisableFlagParsing: true, // the study's commands parse them
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) > 0 && (args[0] == "-h" || args[0] == "--help"):
				return cmd.Help()
			case len(args) == 0 || strings.HasPrefix(args[0], "-"):
				return errors.New("study: give the study program's package first, such as brewput study ./examples/cache/study --cpus 1,2")
			}
			prog, remove, err := studyjob.Build(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer remove()
			return runStudy(cmd.Context(), e, prog, args)
		},
	}
}

// runStudy runs the command of prog's study that args, PKG first, give,
// in a tree of its own whose errors name the study.
func runStudy(ctx context.Context, e *env, prog *studyjob.Program, args []string) error {
	root, node := &cobra.Command{Use: "brewput"}, &cobra.Command{Use: "study"}
	root.AddCommand(node)
	node.AddCommand(studyCmds(e, prog, args[0]))
	finishRoot(root, e)
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetArgs(append([]string{"study"}, args...))
	if err := root.ExecuteContext(ctx); err != nil {
		return studyError{prog.Name, err}
	}
	return nil
}

// studyError is an error of a study's command, which names the study.
type studyError struct {
	study string
	error
}

func (s studyError) Unwrap() error { return s.error }

// studyHelp is help/study/NAME.txt.
func studyHelp(name string) string {
	b, _ := fs.ReadFile(helpFiles, "help/study/"+name+".txt")
	return string(b)
}

// studyTable says what a study's compact table holds, for --format.
const studyTable = "a row per variant and CPU count, the median of its runs"

// studyCmds is the command PKG (use) of prog's study, which measures and
// writes the report, and its commands.
func studyCmds(e *env, prog *studyjob.Program, use string) *cobra.Command {
	vf := &variantFlags{}
	var out, table string
	cmd := &cobra.Command{
		Use:   use,
		Short: cmp.Or(prog.Summary, "measure "+prog.Name+"'s variants on 1, 2, … CPUs"),
		Long:  format.Wrap(prog.Name+": "+cmp.Or(prog.Summary, "a study of "+strings.Join(prog.Names(), ", ")), format.Width(e.stdout), "") + "\n" + studyHelp("measure"),
		Example: fmt.Sprintf("  brewput study %[1]s --cpus 1,2 --dur 300ms\n  brewput study %[1]s run --variants %[2]s \\\n    --count 6 --out old.json\n\n"+
			"  brewput study %[1]s compare old.json new.json\n  brewput study %[1]s list", use, prog.Names()[0]),
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pl, err := vf.plan(cmd.Flags(), prog)
			if err != nil {
				return err
			}
			if err := e.claimReportDir(out, ""); err != nil {
				return err
			}
			e.notePlatform()
			points, runErr := prog.Measure(cmd.Context(), pl, e.stderr, nil)
			if len(points) > 0 {
				if err := mainjob.Rerender(e.stdout, e.stderr, out, report.Inputs{Points: points}, nil, table == "table", "", e.analyzer()); err != nil {
					return failure{Err: err}
				}
			}
			return exitcode.Measured(runErr, len(points), pl.Total())
		},
	}
	vf.register(cmd.Flags())
	cmd.Flags().StringVar(&out, "out", prog.Name+"-report", "folder to write the report to")
	tableVar(cmd.Flags(), &table, studyTable)
	rep := newReportCmd(e)
	modelcli.SetDefault(rep.Flags(), "out", prog.Name+"-report", rep.Flags().Lookup("out").Usage)
	rep.Flags().Lookup("format").Usage = cmd.Flags().Lookup("format").Usage
	rep.Flags().MarkHidden("playground") // the page's links to try a mode of the shop
	cmd.AddCommand(helpCommand(), studyRunCmd(e, prog), rep, newCompareCmd(e), newFitCmd(e), studyWhyCmd(e, prog, use), studyPredictCmd(e, prog, use), &cobra.Command{
		Use:   "list",
		Short: "List the variants",
		Args:  unknownArgs,
		RunE: func(*cobra.Command, []string) error {
			t := format.Table{Ragged: true}
			for _, v := range prog.Variants {
				t.Row(v.Name, v.Summary)
			}
			return t.Write(e.stdout)
		},
	})
	return cmd
}

func studyRunCmd(e *env, prog *studyjob.Program) *cobra.Command {
	vf := &variantFlags{}
	var format, outFile string
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Measure the variants and print, or save, the results",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pl, err := vf.plan(cmd.Flags(), prog)
			if err != nil {
				return err
			}
			out, err := e.model().Output(cmd.Flags().Changed, format, outFile, results.Plan{Command: "study " + prog.Name + " run", Points: pl.Total()})
			if err != nil {
				return err
			}
			e.notePlatform()
			points, runErr := prog.Measure(cmd.Context(), pl, e.stderr, out.Add)
			return finish(out, points, runErr, pl.Total())
		},
	}
	vf.register(cmd.Flags())
	modelcli.RegisterOutput(cmd.Flags(), &format, &outFile, "measured")
	return cmd
}

// variantFlags say what a study measures: its variants and their load.
type variantFlags struct {
	modelcli.LoadFlags
	variants string
}

func (f *variantFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.variants, "variants", "", "comma-separated variants to measure\n(default all; see list)")
	f.LoadFlags.Register(fs, modelcli.StudyWords, time.Second, 200*time.Millisecond)
}

// plan checks every flag before anything is measured.
func (f *variantFlags) plan(fs *pflag.FlagSet, prog *studyjob.Program) (studyjob.Plan, error) {
	p := studyjob.Plan{Count: f.Count, Profile: f.Profile}
	var err error
	if p.Variants, err = prog.ParseVariants("variants", f.variants); err != nil {
		return p, err
	}
	if p.CPUs, err = host.ParseCPUList(f.CPUs, runtime.NumCPU()); err != nil {
		return p, fmt.Errorf("--cpus: %w", err)
	}
	l, err := f.Check(fs)
	if err != nil {
		return p, err
	}
	p.Load = sweep.Load{Load: l}
	p.Retry = modelcli.RetryOf(f.Noisy)
	if fs.Changed("profile") {
		return p, record.CheckDir(f.Profile)
	}
	return p, nil
}

func studyWhyCmd(e *env, prog *studyjob.Program, use string) *cobra.Command {
	var variant, cpus, format, noisy string
	w := studyjob.Why{Load: sweep.Load{Load: results.Load{Dur: 300 * time.Millisecond, Warmup: 100 * time.Millisecond}}}
	cmd := &cobra.Command{
		Use:     "why",
		Short:   "Find what limits a variant, stretching each lock and channel",
		Long:    studyHelp("why"),
		Example: fmt.Sprintf("  brewput study %s why --variant %s --cpus 2", use, prog.Names()[0]),
		Args:    unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			n, err := strconv.Atoi(cpus)
			switch {
			case variant == "":
				return fmt.Errorf("--variant: give the variant to explain; accepted: %s", strings.Join(prog.Names(), ", "))
			case !slices.Contains(prog.Names(), variant):
				return fmt.Errorf("--variant: %q: not a variant; accepted: %s", variant, strings.Join(prog.Names(), ", "))
			case err != nil || n < 1:
				return fmt.Errorf("--cpus %q: want one CPU count, such as 2", cpus)
			case n > runtime.NumCPU():
				return fmt.Errorf("--cpus %d: this machine has %d CPUs", n, runtime.NumCPU())
			case !(w.Frac > 0 && w.Frac <= 1):
				return fmt.Errorf("--stretch %v: want a share of an operation above 0 and at most 1, such as 0.5 for half an operation", w.Frac)
			case w.Within < 0:
				return fmt.Errorf("--within %v: want a positive duration such as 3m, or 0 for no limit", w.Within)
			case w.Count < 1:
				return fmt.Errorf("--count %d: want 1 or more rounds (%d for intervals)", w.Count, stats.RunsForInterval())
			case w.MaxCount < w.Count:
				return fmt.Errorf("--max-count %d: want at least --count, %d", w.MaxCount, w.Count)
			case w.Load.Par < 0:
				return fmt.Errorf("--par %d: want 0 (one per CPU) or a positive number of workers", w.Load.Par)
			case w.Load.Dur <= 0:
				return fmt.Errorf("--dur %v: want a positive duration such as 300ms", w.Load.Dur)
			case w.Load.Warmup < 0:
				return fmt.Errorf("--warmup %v: want zero or a positive duration such as 100ms", w.Load.Warmup)
			}
			// --within is the whole command's time, its build included.
			w.Variant, w.Load.CPUs, w.Since = variant, n, prog.Began
			w.Retry = modelcli.RetryOf(noisy)
			if err := w.Load.Validate(); err != nil {
				return err
			}
			e.notePlatform()
			s, runErr := prog.Why(cmd.Context(), w, e.stderr)
			if none, ok := errors.AsType[*studyjob.NoParts](runErr); ok {
				fmt.Fprintln(e.stdout, none.Error()+".")
				return nil
			}
			if s == nil || len(s.Base) == 0 {
				return runErr
			}
			return writeStretches(e, s, format, runErr, w.Count, w.MaxCount)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&variant, "variant", "", "the variant to explain (see list)")
	fs.StringVar(&cpus, "cpus", strconv.Itoa(runtime.NumCPU()), "the CPU count to explain it on, one number")
	fs.Float64Var(&w.Frac, "stretch", why.DefaultFrac, "time added per operation, as a share of one\n(to each lock and channel in its turn, and outside every lock as the control: 0.5 is half an operation)")
	fs.DurationVar(&w.Within, "within", 3*time.Minute, "longest the whole command may take\n(the study's build included; it stops undecided rather than start a round that would not end in it; 0: no limit)")
	fs.IntVar(&w.Count, "count", stats.RunsForInterval(), "rounds at least:\nthe variant as it is and each stretch once a round")
	fs.IntVar(&w.MaxCount, "max-count", 20, "rounds at most,\nwhile an experiment is undecided")
	fs.IntVar(&w.Load.Par, "par", 0, "workers at once; 0 means one per CPU")
	fs.Var((*cliflag.Duration)(&w.Load.Dur), "dur", "measured duration of each run")
	fs.Var((*cliflag.Duration)(&w.Load.Warmup), "warmup", "warm-up before each run")
	formatVar(fs, &format, "")
	modelcli.RegisterNoisy(fs, &noisy)
	return cmd
}

// writeStretches writes a why experiment's answer as format says and
// turns how it ended into the command's error.
func writeStretches(e *env, s *why.Stretches, outFormat string, runErr error, count, maxCount int) error {
	why.Judge(s)
	write := text.WriteStretches
	if outFormat == "json" {
		write = text.WriteStretchesJSON
	}
	if err := write(e.stdout, s); err != nil {
		return failure{Err: err}
	}
	if stoppedLate(e, outFormat, runErr) {
		return nil // the answer says what was decided
	}
	// Undecided after count rounds, it went on up to maxCount: "after 7
	// of 20", not "of 6".
	total := count
	if len(s.Base) >= count {
		total = maxCount
	}
	return exitcode.Ended(runErr, len(s.Base), total, "rounds", "what was measured")
}

// stoppedLate reports whether err says a why stopped at --within, and if
// so says it: a line after a table, else on stderr.
func stoppedLate(e *env, outFormat string, err error) bool {
	late, ok := errors.AsType[*why.OutOfTime](err)
	if !ok {
		return false
	}
	if outFormat == "table" {
		fmt.Fprintln(e.stdout, format.Wrap(text.StoppedAt(late.Error(), true), format.Width(e.stdout), ""))
	} else {
		fmt.Fprintln(e.stderr, text.StoppedAt(late.Error(), false))
	}
	return true
}

func studyPredictCmd(e *env, prog *studyjob.Program, use string) *cobra.Command {
	var variants, cpus, measure, format string
	p := studyjob.Predict{Measure: e.calibrateCosts, Plan: studyjob.Plan{Load: sweep.Load{Load: results.Load{Dur: time.Second, Warmup: 200 * time.Millisecond}}, Retry: sweep.DefaultRetry()}}
	cmd := &cobra.Command{
		Use:   "predict",
		Short: "Predict each variant on more CPUs, checked against its runs",
		Long:  studyHelp("predict"),
		Example: fmt.Sprintf("  brewput study %[1]s predict --cpus 1-64\n"+
			"  brewput study %[1]s run --cpus 1,2 --out measured.json\n"+
			"  brewput study %[1]s predict --from measured.json \\\n    --format json", use),
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fs := cmd.Flags()
			var err error
			if p.Variants, err = prog.ParseVariants("variants", variants); err != nil {
				return err
			}
			if p.CPUs, err = host.ParseCPUList(cpus, host.ModelMaxCPUs); err != nil {
				return fmt.Errorf("--cpus: %w", err)
			}
			if p.From != "" {
				if err := measuringOnly(fs, p.From, "measure", "dur", "warmup", "count"); err != nil {
					return err
				}
			} else if p.Plan.CPUs, err = host.ParseCPUList(measure, runtime.NumCPU()); err != nil {
				return fmt.Errorf("--measure: %w", err)
			}
			switch {
			case p.Load.Dur <= 0:
				return fmt.Errorf("--dur %v: want a positive duration such as 1s", p.Load.Dur)
			case p.Load.Warmup < 0:
				return fmt.Errorf("--warmup %v: want zero or a positive duration such as 200ms", p.Load.Warmup)
			case p.Count < 1:
				return fmt.Errorf("--count %d: want 1 or more repetitions of each point", p.Count)
			}
			if err := studyjob.CheckCalibration(p.Calibration); err != nil {
				return err
			}
			p.JSON = format == "json"
			if p.From == "" { // else it reads what was measured
				e.notePlatform()
			}
			return prog.Predict(cmd.Context(), p, e.stdout, e.stderr)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&cpus, "cpus", "1-64", "CPU counts to predict, such as 1-64\nor 1,2,4,8")
	fs.StringVar(&measure, "measure", host.Doubling(runtime.NumCPU()), "CPU counts to measure first,\nas --cpus takes them, up to this machine's")
	fs.StringVar(&p.From, "from", "", "read what was measured from this results file\n(run --out FILE) instead of measuring")
	fs.StringVar(&variants, "variants", "", "comma-separated variants to predict\n(default all; see list)")
	fs.Var((*cliflag.Duration)(&p.Load.Dur), "dur", "measured duration of each point")
	fs.Var((*cliflag.Duration)(&p.Load.Warmup), "warmup", "warm-up before each point")
	fs.IntVar(&p.Count, "count", 1, "measure every point this many times;\nthe model reads the median run")
	fs.StringVar(&p.Calibration, "calibration", "", "the calibration of the machine to predict for\n(brewput calibrate --out FILE, run there); default: the many-core machine whose contention curves brewput knows")
	formatVar(fs, &format, "\n(JSON Lines, a point per variant and CPU count)")
	fs.StringVar(&p.Out, "out", "", "also write a report to this folder\n(of the measured and predicted points)")
	return cmd
}
