package study

import (
	"github.com/brewput/brewput/explain/analyze"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/brewput/brewput/internal/profile"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/internal/atomicfile"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/internal/comparecmd"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/internal/sweep"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
)

// Main runs the program's command line for s and exits: with no command
// it measures every variant on 1 to all CPUs, prints the table and writes
// the report; see Run for the commands. Call it from main.
func Main(s Study) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, s, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run is Main with its arguments and streams given, returning the exit
// status: 0, 1 when measuring failed, 2 for bad input (a one-line error
// naming the flag, before anything is measured), 130 when interrupted
// after saving what was measured. The commands:
//
//	NAME [flags]           measure, print the verdict and table, write the report (--out DIR)
//	NAME run [flags]       measure and print (or --out FILE) the results
//	NAME report FILE...    render the report from results files
//	NAME compare OLD NEW   how NEW differs from OLD, with a statistical verdict
//	NAME fit FILE...       the Universal Scalability Law fitted to each variant
//	NAME list              the variants
//
// Each point is measured in a child process: the program itself
// (os.Executable), re-executed with a hidden command and restricted to
// the point's CPUs.
func Run(ctx context.Context, s Study, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := s.Validate(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
		return exitcode.Usage
	}
	c := &cli{study: s, stdin: stdin, stdout: stdout, stderr: stderr}
	root := c.root()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", s.Name, err)
	}
	return exitcode.Of(err, exitcode.Interrupted)
}

// failure marks an error that is not the user's input (exit 1); every
// other error is bad usage (2).
type failure = exitcode.Failure

// cli is the command line of one study.
type cli struct {
	study          Study
	stdin          io.Reader
	stdout, stderr io.Writer
}

// childSpec is what a parent hands the child that measures one point.
type childSpec struct {
	Variant string       `json:"variant"`
	Load    sweep.Load   `json:"load"`
	Stretch *stretchSpec `json:"stretch,omitempty"`
}

func (c *cli) root() *cobra.Command {
	mf := &measureFlags{}
	var out string
	var full func() (bool, error)
	s := c.study
	root := &cobra.Command{
		Use:   s.Name,
		Short: orText(s.Summary, "measure "+s.Name+"'s variants on 1, 2, … CPUs"),
		Long: s.Name + ": " + orText(s.Summary, "a study of "+strings.Join(s.names(), ", ")) + `

With no command it measures every variant (or --variants) on each CPU count
(--cpus, 1 to all), each point in a child process restricted to that many
CPUs, prints what the variants measured side by side and the compact
table (--format table for every point) — with the meter each point used the
most — and writes a report to --out: index.html with the charts, the variants side by
side and what their meters measured, results.json and results.csv (brewput
report, compare and fit read them too). It does not say what limits a
variant from what was measured: variants that differ in one change show
what that change did, why finds a limit by experiment and predict models
each variant from its meters.

A closed loop (the default) has --par workers (0: one per CPU), each calling
the variant's operation again as soon as it returns; an open loop (--rate or
--interval) has calls arriving on a schedule into a queue of at most --maxq.
--count N measures everything N times over, for compare's statistics.
--profile DIR writes each point's trace and CPU, block and mutex profiles.
A point from which other processes took more than 0.2 CPU beyond the cores
it left free is disturbed: it is measured again, up to 3 times, each after
waiting up to 5 s for a quiet machine, the least disturbed kept and marked.
Ctrl-C keeps what was measured, writes it and exits 130.`,
		Example:       fmt.Sprintf("  %[1]s --cpus 1,2 --dur 300ms\n  %[1]s run --variants %[2]s --count 6 --out old.json\n  %[1]s compare old.json new.json\n  %[1]s list", s.Name, s.Variants[0].Name),
		Args:          cobra.NoArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			plan, err := mf.plan(cmd.Flags(), s)
			if err != nil {
				return err
			}
			fullTable, err := full()
			if err != nil {
				return err
			}
			if err := report.CheckDir(out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			points, runErr := c.measure(cmd.Context(), plan)
			if len(points) > 0 {
				if err := c.writeReport(out, points, fullTable); err != nil {
					return failure{Err: err}
				}
			}
			return exitcode.Measured(runErr, len(points), plan.total())
		},
	}
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	mf.register(root.Flags())
	root.Flags().StringVar(&out, "out", s.Name+"-report", "folder to write the report to")
	full = cliflag.Table(root.Flags(), compactTable)
	root.AddCommand(c.runCmd(), c.reportCmd(), comparecmd.New(c.stdout, results.ReadFile), c.fitCmd(), c.whyCmd(), c.predictCmd(), c.listCmd(), c.pointCmd())
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

func (c *cli) runCmd() *cobra.Command {
	mf := &measureFlags{}
	var format, out string
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Measure the variants and print, or save, the results",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			plan, err := mf.plan(cmd.Flags(), c.study)
			if err != nil {
				return err
			}
			f, err := results.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			var dest *atomicfile.File
			if out != "" {
				if !cmd.Flags().Changed("format") {
					f = results.JSON
					if guess, ok := results.FormatForFile(out); ok {
						f = guess
					}
				}
				// Created before measuring, so that an unwritable path is
				// told before any work; committed whole at the end.
				if dest, err = atomicfile.Create(out); err != nil {
					return fmt.Errorf("--out %s: %w", out, err)
				}
			}
			points, runErr := c.measure(cmd.Context(), plan)
			if err := c.emit(f, dest, points); err != nil {
				return failure{Err: err}
			}
			return exitcode.Measured(runErr, len(points), plan.total())
		},
	}
	mf.register(cmd.Flags())
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(results.Formats(), ", ")+" (with --out, guessed from its extension)")
	cmd.Flags().StringVar(&out, "out", "", "write the results to this file (the table still goes to stdout)")
	return cmd
}

// emit writes the results: format f to stdout, or to the file dest with
// the table to stdout; with no points, nothing (and dest is discarded).
func (c *cli) emit(f results.Format, dest *atomicfile.File, points []results.Point) error {
	if len(points) == 0 {
		if dest != nil {
			dest.Discard()
		}
		return nil
	}
	if dest == nil {
		return results.Write(c.stdout, f, points)
	}
	if err := results.Write(dest, f, points); err != nil {
		dest.Discard()
		return fmt.Errorf("write %s: %w", dest.Path(), err)
	}
	if err := dest.Commit(); err != nil {
		return fmt.Errorf("write %s: %w", dest.Path(), err)
	}
	fmt.Fprintf(c.stderr, "wrote %s to %s\n", format.Count(len(points), "point"), dest.Path())
	return results.WriteTable(c.stdout, points)
}

func (c *cli) reportCmd() *cobra.Command {
	var out string
	var full func() (bool, error)
	cmd := &cobra.Command{
		Use:   "report FILE...",
		Short: "Render the report from saved results files, without measuring",
		Args:  cliflag.NeedFiles("report", "results.json"),
		RunE: func(cmd *cobra.Command, files []string) error {
			fullTable, err := full()
			if err != nil {
				return err
			}
			points, err := results.ReadFiles(files...)
			if err != nil {
				return err
			}
			if err := report.CheckDir(out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			if err := c.writeReport(out, points, fullTable); err != nil {
				return failure{Err: err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", c.study.Name+"-report", "folder to write the report to")
	full = cliflag.Table(cmd.Flags(), compactTable)
	return cmd
}

func (c *cli) fitCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "fit FILE...",
		Short: "Fit the Universal Scalability Law to each variant's throughput against CPUs",
		Args:  cliflag.NeedFiles("fit", "results.json"),
		RunE: func(cmd *cobra.Command, files []string) error {
			if err := compare.CheckFormat(format); err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			points, err := results.ReadFiles(files...)
			if err != nil {
				return err
			}
			fits, err := scaling.FitAll(points, scaling.ByCPUs)
			if err != nil {
				return err
			}
			if err := scaling.WriteFits(c.stdout, fits, scaling.ByCPUs, format); err != nil {
				return failure{Err: err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json (JSON Lines)")
	return cmd
}

func (c *cli) listCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the variants",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t := format.Table{Ragged: true}
			for _, v := range c.study.Variants {
				t.Row(v.Name, v.Summary)
			}
			return t.Write(c.stdout)
		},
	}
}

// pointCmd is the child's side: it measures the one point given as JSON
// on stdin and writes it as JSON on stdout.
func (c *cli) pointCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "point",
		Short:  "Measure one point given as JSON on stdin (used by the study itself)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var spec childSpec
			dec := json.NewDecoder(c.stdin)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&spec); err != nil {
				return failure{Err: fmt.Errorf("read point: %w", err)}
			}
			p, err := c.study.measure(cmd.Context(), spec.Variant, spec.Load, spec.Stretch)
			if err != nil {
				return failure{Err: err}
			}
			return json.NewEncoder(c.stdout).Encode(p)
		},
	}
}

// writeReport renders points into dir, then prints what the variants
// measured side by side (the verdict, which names no limit: brewput has no
// model of the user's code), the table — compact, or with full every
// point — and where the page is.
func (c *cli) writeReport(dir string, points []results.Point, full bool) error {
	a, err := analyze.Points(points, analyze.Options{})
	if err != nil {
		return err
	}
	return report.Write(c.stdout, dir, points, report.Options{Analysis: a}, full)
}

// plan is a checked list of points to measure, count times over.
type plan struct {
	variants []string
	cpus     []int
	load     sweep.Load // CPUs set per point
	count    int
	profile  string
}

func (p plan) total() int { return len(p.variants) * len(p.cpus) * p.count }

// measure measures every point of the plan, each in a child process,
// round by round, and returns what it measured, also when it stops early.
func (c *cli) measure(ctx context.Context, p plan) ([]results.Point, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, failure{Err: fmt.Errorf("find this program to measure in a child process: %w", err)}
	}
	if p.profile != "" {
		if err := os.MkdirAll(p.profile, 0o755); err != nil {
			return nil, failure{Err: fmt.Errorf("--profile: create %s: %w", p.profile, err)}
		}
	}
	fmt.Fprintf(c.stderr, "measuring %s, about %v\n", format.Count(p.total(), "point"),
		(time.Duration(p.total()) * (p.load.Warmup + p.load.Dur)).Round(100*time.Millisecond))
	var points []results.Point
	for rep := 1; rep <= p.count; rep++ {
		for _, v := range p.variants {
			for _, n := range p.cpus {
				l := p.load
				l.CPUs = n
				if p.profile != "" {
					name := fmt.Sprintf("%s-%dcpu", v, n)
					if p.count > 1 {
						name += fmt.Sprintf("-rep%d", rep)
					}
					l.Profile = filepath.Join(p.profile, name)
				}
				spec := childSpec{Variant: v, Load: l}
				pt, err := sweep.Quietly(ctx, sweep.DefaultRetry(), func(ctx context.Context) (results.Point, error) {
					return sweep.RunChild(ctx, self, []string{"point"}, nil, n, spec)
				}, func(p results.Point, attempt int, waited time.Duration, quiet bool) {
					fmt.Fprintf(c.stderr, "%s cpus=%d: disturbed (%s): measuring again after waiting %v for a quiet machine, attempt %d of %d\n",
						v, n, p.Interference(), waited.Round(100*time.Millisecond), attempt+1, sweep.DefaultRetry().Attempts)
				})
				if err != nil {
					if ctx.Err() != nil {
						return points, ctx.Err()
					}
					return points, fmt.Errorf("%s cpus=%d: %w", v, n, err)
				}
				if p.count > 1 {
					pt.Rep = rep
				}
				points = append(points, pt)
				fmt.Fprintf(c.stderr, "[%d/%d] %s cpus=%d: %s, p50 %s\n", len(points), p.total(), v, n,
					format.Rate(pt.Throughput, pt.Unit), format.Wait(pt.Latency.P50))
			}
		}
	}
	return points, nil
}

// measureFlags say what to measure.
type measureFlags struct {
	variants, cpus        string
	par, maxq, count      int
	rate                  float64
	dur, warmup, interval cliflag.Duration
	profile               string
}

func (f *measureFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.variants, "variants", "", "comma-separated variants to measure (default all; see list)")
	fs.StringVar(&f.cpus, "cpus", fmt.Sprintf("1-%d", runtime.NumCPU()), "CPU counts, as a list and ranges such as 1,2 or 1-4")
	fs.IntVar(&f.par, "par", 0, "workers at once (closed loop) or servers (open loop); 0 means one per CPU")
	f.dur, f.warmup = cliflag.Duration(time.Second), cliflag.Duration(200*time.Millisecond)
	fs.Var(&f.dur, "dur", "measured duration of each point")
	fs.Var(&f.warmup, "warmup", "uncounted warm-up before each point")
	fs.Float64Var(&f.rate, "rate", 0, "open loop: calls arriving per second (default closed loop)")
	fs.Var(&f.interval, "interval", "open loop: time between arrivals, instead of --rate")
	fs.IntVar(&f.maxq, "maxq", 1000, "open loop: most calls waiting; an arrival beyond it is dropped")
	fs.IntVar(&f.count, "count", 1, "measure every point this many times, in rounds (as go test -count), for compare's statistics")
	fs.StringVar(&f.profile, "profile", "", "write each point's execution trace and CPU, block and mutex profiles to this folder")
}

// plan checks every flag before anything is measured.
func (f *measureFlags) plan(fs *pflag.FlagSet, s Study) (plan, error) {
	p := plan{count: f.count, profile: f.profile, variants: s.names()}
	if fs.Changed("variants") {
		p.variants = nil
		for _, name := range strings.Split(f.variants, ",") {
			v, err := s.Variant(strings.TrimSpace(name))
			if err != nil {
				return p, fmt.Errorf("--variants: %q: not a variant; accepted: %s", strings.TrimSpace(name), strings.Join(s.names(), ", "))
			}
			p.variants = append(p.variants, v.Name)
		}
	}
	cpus, err := host.ParseCPUList(f.cpus, runtime.NumCPU())
	if err != nil {
		return p, fmt.Errorf("--cpus: %w", err)
	}
	p.cpus = cpus
	p.load = sweep.Load{Par: f.par, Dur: time.Duration(f.dur), Warmup: time.Duration(f.warmup)}
	switch {
	case f.par < 0:
		return p, fmt.Errorf("--par %d: want 0 (one per CPU) or a positive number of workers", f.par)
	case p.load.Dur <= 0:
		return p, fmt.Errorf("--dur %v: want a positive duration such as 2s", p.load.Dur)
	case p.load.Warmup < 0:
		return p, fmt.Errorf("--warmup %v: want zero or a positive duration such as 200ms", p.load.Warmup)
	case fs.Changed("rate") && fs.Changed("interval"):
		return p, errors.New("--rate and --interval: give one or the other, not both")
	case fs.Changed("rate") && f.rate <= 0:
		return p, fmt.Errorf("--rate %v: want a positive number of calls per second, such as 10000", f.rate)
	case fs.Changed("interval") && f.interval <= 0:
		return p, fmt.Errorf("--interval %v: want a positive duration such as 100us", time.Duration(f.interval))
	case fs.Changed("maxq") && !fs.Changed("rate") && !fs.Changed("interval"):
		return p, errors.New("--maxq: only applies to an open loop; add --rate or --interval")
	case f.maxq < 0:
		return p, fmt.Errorf("--maxq %d: want 0 or more waiting calls", f.maxq)
	case f.count < 1:
		return p, fmt.Errorf("--count %d: want 1 or more repetitions of each point", f.count)
	}
	switch {
	case fs.Changed("rate"):
		p.load.Rate, p.load.MaxQ = f.rate, f.maxq
	case fs.Changed("interval"):
		p.load.Rate, p.load.MaxQ = float64(time.Second)/float64(f.interval), f.maxq
	}
	if fs.Changed("profile") {
		if err := profile.CheckDir(f.profile); err != nil {
			return p, err
		}
	}
	return p, nil
}

// compactTable says what the compact table holds, for --format's usage.
const compactTable = "a row per variant and CPU count, the median of its runs"

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q; see %s --help", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
