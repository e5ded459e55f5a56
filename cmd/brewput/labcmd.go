package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/profile"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// labEntry is one lab as brewput lab runs it: its texts, and its own
// flags. register adds the flags and returns prepare, which checks them
// once parsed and returns the lab's run.
type labEntry struct {
	name, summary, help, example string
	register                     func(fs *pflag.FlagSet) (prepare func() (labRun, error))
}

// labRun measures a lab on each of cpus, reporting progress a line at a
// time; cancelled, it returns what it measured with ctx's error.
type labRun func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error)

// labEntries lists every lab, in the order brewput lab list shows them.
func labEntries() []labEntry {
	return []labEntry{
		workloadsLab(),
		channelsLab(),
		renderLab(),
		wordcountLab(),
		actorsLab(),
		logsLab(),
		streamLab(),
		aggregateLab(),
	}
}

// labNames lists the labs' names, for messages.
func labNames() string {
	var names []string
	for _, l := range labEntries() {
		names = append(names, l.name)
	}
	return strings.Join(names, ", ")
}

func newLabCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lab [list | NAME [flags]]",
		Short: "Run one of the labs: other concurrent systems, measured and reported like the shop",
		Long: `The labs are real Go experiments beside the coffee shop, each on a question of
structure: CPU-bound against IO-bound work, channel contention and batching,
parallel rendering and Amdahl's law, buffered reading. Each runs on the CPU
counts given (GOMAXPROCS), writes the same results files as the shop (every
point carries lab, variant, cpus, source, throughput and unit) and appears in
the report (brewput --labs all, or brewput report on its results).

brewput lab list shows them; brewput lab NAME --help says what one shows and
what to look for.`,
		Example: `  brewput lab list
  brewput lab workloads
  brewput lab channels --cpus 1,2 --format json --out channels.json
  brewput lab render --png mandelbrot.png`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unknown lab %q; accepted: %s (see brewput lab list)", args[0], labNames())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return writeLabList(e) },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the labs",
		Args:  unknownArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return writeLabList(e) },
	})
	for _, l := range labEntries() {
		cmd.AddCommand(newLabRunCmd(e, l))
	}
	return cmd
}

func writeLabList(e *env) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, l := range labEntries() {
		fmt.Fprintf(tw, "%s\t%s\n", l.name, l.summary)
	}
	return tw.Flush()
}

// newLabRunCmd is brewput lab NAME: the lab's own flags and the common
// ones, --cpus, --format and --out.
func newLabRunCmd(e *env, l labEntry) *cobra.Command {
	var cpus, format, out, profDir string
	var prepare func() (labRun, error)
	cmd := &cobra.Command{
		Use:     l.name,
		Short:   l.summary,
		Long:    l.help,
		Example: l.example,
		Args:    unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			counts, err := host.ParseCPUList(cpus, runtime.NumCPU())
			if err != nil {
				return fmt.Errorf("--cpus: %w", err)
			}
			run, err := prepare()
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("profile") {
				if err := checkProfileDir(profDir); err != nil {
					return err
				}
				run = profiled(run, l.name, profDir)
			}
			f, dest, err := outputOf(cmd.Flags(), format, out)
			if err != nil {
				return err
			}
			progress := func(line string) { fmt.Fprintln(e.stderr, line) }
			points, runErr := run(cmd.Context(), counts, progress)
			if err := emit(e, f, dest, points); err != nil {
				return failure{err}
			}
			return labError(runErr, l.name)
		},
	}
	fs := cmd.Flags()
	prepare = l.register(fs)
	fs.StringVar(&cpus, "cpus", defaultLabCPUs(), "CPU counts (GOMAXPROCS), as a list and ranges such as 1,2 or 1-4")
	fs.StringVar(&format, "format", "table", "output format: "+strings.Join(results.Formats(), ", ")+" (with --out, guessed from its extension)")
	fs.StringVar(&out, "out", "", "write the results to this file (the table still goes to stdout)")
	fs.StringVar(&profDir, "profile", "", "write, for each CPU count, an execution trace and CPU, block and mutex profiles of the lab's run to this folder (NAME-Ncpu.trace, …), and summarize where its goroutines waited")
	return cmd
}

// profiled runs the lab one CPU count at a time, each under a profile
// session whose files are DIR/NAME-Ncpu.*; the block profile's waits go
// into each of the count's points. The profile covers every variant and
// repetition at that count, so the waits have totals but no per-operation
// figure (per_op_ms 0): no one variant's operations account for them.
func profiled(run labRun, name, dir string) labRun {
	return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		var points []results.Point
		for _, n := range cpus {
			base := filepath.Join(dir, fmt.Sprintf("%s-%dcpu", name, n))
			session, err := profile.Start(base)
			if err != nil {
				return points, err
			}
			got, runErr := run(ctx, []int{n}, progress)
			if runErr != nil {
				session.Abort()
				return append(points, got...), runErr
			}
			files, err := session.Stop()
			if err != nil {
				return append(points, got...), err
			}
			waits, err := summarizeBlock(files.Block, 0)
			if err != nil {
				return append(points, got...), err
			}
			for i := range got {
				got[i].Waits, got[i].Profile = waits, base
			}
			points = append(points, got...)
			progress(fmt.Sprintf("profiles of %d %s: %s.trace, .cpu.pprof, .block.pprof, .mutex.pprof", n, map[bool]string{true: "CPU", false: "CPUs"}[n == 1], base))
		}
		return points, nil
	}
}

// summarizeBlock reads a block profile into its waits per operation.
func summarizeBlock(path string, ops int64) ([]results.Wait, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return profile.Summarize(f, ops, profile.Options{})
}

// defaultLabCPUs is 1 CPU and all of them, the comparison every lab makes.
func defaultLabCPUs() string {
	if n := runtime.NumCPU(); n > 1 {
		return fmt.Sprintf("1,%d", n)
	}
	return "1"
}

// labError turns how a lab's run ended into the command's error.
func labError(err error, name string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return interrupted{fmt.Errorf("lab %s interrupted; kept what was measured", name)}
	}
	return failure{fmt.Errorf("lab %s: %w", name, err)}
}

// labPlan is the labs the main job runs after the study, with their
// defaults.
type labPlan []labRun

// planLabs reads the main job's --labs: "" for none, "all", or names.
func planLabs(list string) (labPlan, error) {
	if list == "" {
		return nil, nil
	}
	entries := labEntries()
	var chosen []labEntry
	if list == "all" {
		chosen = entries
	} else {
		for _, name := range strings.Split(list, ",") {
			name = strings.TrimSpace(name)
			i := slices.IndexFunc(entries, func(l labEntry) bool { return l.name == name })
			if i < 0 {
				return nil, fmt.Errorf("--labs: unknown lab %q; accepted: all, or some of %s", name, labNames())
			}
			chosen = append(chosen, entries[i])
		}
	}
	var plan labPlan
	for _, l := range chosen {
		prepare := l.register(pflag.NewFlagSet(l.name, pflag.ContinueOnError))
		run, err := prepare()
		if err != nil {
			return nil, fmt.Errorf("--labs: %s: %w", l.name, err)
		}
		plan = append(plan, run)
	}
	return plan, nil
}

// run runs each lab in turn on cpus, keeping what was measured when one
// fails or is interrupted.
func (plan labPlan) run(ctx context.Context, e *env, cpus []int) ([]results.Point, error) {
	var points []results.Point
	for _, run := range plan {
		got, err := run(ctx, cpus, func(line string) { fmt.Fprintf(e.stderr, "lab %s\n", line) })
		points = append(points, got...)
		if err != nil {
			return points, err
		}
	}
	return points, nil
}
