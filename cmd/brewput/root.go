package main

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/brewput/brewput/advise"
	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lessons"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
)

// defaultReportDir is where the main job and brewput report write.
const defaultReportDir = "brewput-report"

func newRoot(e *env) *cobra.Command {
	sf := &studyFlags{}
	var out string
	var predict bool
	var labs string
	var withLessons bool
	root := &cobra.Command{
		Use:   "brewput",
		Short: "Measure how the structure of concurrent Go code shapes its throughput and latency",
		Long: `brewput measures real Go implementations of a coffee shop — one lock for the
whole kitchen, a lock per machine, replicas of each machine, pipelines of
goroutines with buffered or unbuffered channels — on real CPUs, and shows
how each structure shapes throughput ("brewput", lattes per second),
latency, contention and CPU utilization as CPUs are added.

With no command it runs the talk's study — its main modes on 1 to all CPUs,
1 s a point — and writes a report to ./brewput-report: index.html with the
three charts (throughput and median latency against CPUs, the latency
distribution at the most CPUs), results.json, results.csv and the charts as
SVG and PNG. The study's flags are those of brewput run.

Ctrl-C stops measuring, writes the report of what was measured and exits 130.`,
		Example: `  brewput
  brewput --modes finelocking,multi-2 --dur 2s --out shop-report
  brewput run --modes ideal,locking,finelocking --cpus 1,2 --dur 2s
  brewput report old/results.json new/results.json --out both
  brewput compare old.json new.json
  brewput list`,
		Args:          cobra.NoArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := sf.plan(cmd.Flags(), runtime.NumCPU())
			if err != nil {
				return err
			}
			if err := report.CheckDir(out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			runLabs, err := e.planLabs(labs)
			if err != nil {
				return err
			}
			// The model's costs are found (measured, the first time)
			// before measuring, so that a problem with them costs no
			// measurement.
			var pr *prediction
			if predict {
				if pr, err = studyPrediction(cmd, e); err != nil {
					return err
				}
			}
			points, runErr := e.measure(cmd.Context(), st)
			// The measured points' bottlenecks come from the model's
			// profile of their configurations, under this machine's
			// calibration where there is one.
			policy := causal.Fifo
			if pr != nil {
				policy = pr.Policy
			}
			if len(points) > 0 && pr != nil && runErr == nil {
				points = append(points, pr.predictStudy(e, st)...)
			}
			if runErr == nil && len(runLabs) > 0 {
				var labPoints []results.Point
				labPoints, runErr = lab.RunEach(cmd.Context(), runLabs, st.CPUs(), func(line string) { fmt.Fprintf(e.stderr, "lab %s\n", line) })
				points = append(points, labPoints...)
			}
			var verdicts []lessons.Result
			var lessonsErr error
			if runErr == nil && withLessons {
				verdicts, lessonsErr = e.mainLessons(cmd.Context())
			}
			if len(points) > 0 {
				opt := reportOptions(e, points)
				opt.Lessons = verdicts
				if err := writeReport(e, out, points, policy, opt); err != nil {
					return failure{err}
				}
			}
			if runErr == nil && lessonsErr != nil {
				return lessonsErr
			}
			return measureError(runErr, len(points), st.Total())
		},
	}
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	// Every command's and lab's flags: a value that does not parse says
	// what the flag accepts, and a number that is not finite is refused,
	// before any command runs.
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cliflag.Explain(err) })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return cliflag.CheckFinite(cmd.Flags()) }
	sf.register(root.Flags(), defaultStudy())
	root.Flags().StringVar(&out, "out", defaultReportDir, "folder to write the report to")
	root.Flags().StringVar(&labs, "labs", "", "also run these labs (comma-separated, or all; see brewput lab list) with their defaults on the study's CPU counts, each with its section in the report")
	root.Flags().BoolVar(&withLessons, "lessons", false, "also measure the seeds' claims, as brewput lessons --quick (about a minute), and put their verdicts in the report")
	root.Flags().BoolVar(&predict, "predict", true, fmt.Sprintf("add the model's predictions (go policy) for 1 to %d CPUs to the report", predictCPUs()))
	root.AddCommand(newRunCmd(e), newModelCmd(e), newAdviseCmd(e), newWhyCmd(e), newCalibrateCmd(e), newLabCmd(e), newReportCmd(e), newCompareCmd(e), newFitCmd(e), newListCmd(e), newLessonsCmd(e), newPointCmd(e))
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

// writeReport renders points into dir, with each point's bottleneck (a
// causal profile under policy for those without one, causal.Annotate: a
// profile that fails is told on stderr, and the report is written all the
// same) and opt's advice, then prints the table and where the page is.
func writeReport(e *env, dir string, points []results.Point, policy model.Policy, opt report.Options) error {
	if err := causal.Annotate(points, policy); err != nil {
		fmt.Fprintf(e.stderr, "causal profiles: %v\n", err)
	}
	r, err := report.BuildWith(points, opt)
	if err != nil {
		return err
	}
	if err := r.WriteDir(dir); err != nil {
		return err
	}
	if err := results.WriteTable(e.stdout, r.Points); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\nreport: %s\n", filepath.Join(dir, report.Index))
	return nil
}

// reportOptions is what the page shows beside the points: the labs'
// figures, and the model's advice for each mode under the fifo policy,
// which needs no calibration, so that brewput report renders the same page
// from the results file alone. A mode it cannot advise on gets a note.
func reportOptions(e *env, points []results.Point) report.Options {
	advice, skipped := advise.Points(points, model.Policy{Sched: "fifo", Seed: 1})
	for _, err := range skipped {
		fmt.Fprintln(e.stderr, err)
	}
	return report.Options{Advice: advice, Figures: lab.Figures(e.labs())}
}

// unknownArgs turns stray arguments into a usage error naming them.
func unknownArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q; see %s --help", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}
