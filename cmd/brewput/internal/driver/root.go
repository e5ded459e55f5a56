package driver

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/mainjob"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// defaultReportDir is where the main job and brewput report write.
const defaultReportDir = "brewput-report"

func newRoot(e *env) *cobra.Command {
	sf := &modelcli.StudyFlags{}
	var out, labs, resume, playground, table string
	var withPredict, withLessons bool
	root := &cobra.Command{
		Use:           "brewput",
		Short:         "How the structure of concurrent Go code shapes its throughput",
		Args:          unknownCommand,
		Annotations:   map[string]string{flagsOf: "run"}, // the study's flags
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			var st *shopsweep.Batch
			var have []results.Point
			var plan results.Plan
			if resume != "" {
				if err := refuseGiven(cmd.Flags(), resume, "format"); err != nil { // --format says only how to print
					return err
				}
				if st, have, plan, err = mainjob.Resume(resume); err != nil {
					return err
				}
				out, labs, withLessons, withPredict = filepath.Dir(resume), strings.Join(plan.Labs, ","), plan.Lessons, plan.Predict
				if dest, ok := atomicfile.DestOf(out); ok {
					out = dest // a killed run's journal, beside its report folder
				}
			} else if st, err = planMeasured(sf, cmd.Flags()); err != nil {
				return err
			}
			if err := e.claimReportDir(out, resume); err != nil {
				return err
			}
			var runLabs []lab.Lab
			if labs != "" {
				if runLabs, err = lab.Select(e.labs(), labs); err != nil {
					return fmt.Errorf("--labs: %w", err)
				}
			}
			if resume == "" {
				plan = st.Plan("brewput")
				plan.Lessons, plan.Predict = withLessons, withPredict
				for _, l := range runLabs {
					plan.Labs = append(plan.Labs, l.Info().Name)
				}
			}
			job := mainjob.Job{Study: st, Have: have, Resume: resume, Plan: plan, Dir: out, Measure: e.measure, PredictCPUs: modelcli.PredictCPUs(),
				Labs: runLabs, Figures: lab.Figures(e.labs()), Full: table == "table", Playground: playground, Stdout: e.stdout, Stderr: e.stderr}
			if withLessons {
				job.Lessons = e.mainLessons
			}
			// The costs first: a problem with them costs no measurement.
			if withPredict {
				if job.Prediction, err = predict.Calibrated(cmd.Context(), e.calibrateCosts, e.tell); err != nil {
					return err
				}
			}
			return job.Run(cmd.Context())
		},
	}
	root.Version = version()
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().Bool("version", false, "print brewput's module version\nand the Go version it was built with") // cobra's, without its -v
	sf.Register(root.Flags(), time.Second, 200*time.Millisecond)
	root.Flags().StringVar(&out, "out", defaultReportDir, "folder to write the report to")
	tableVar(root.Flags(), &table, compactTable)
	root.Flags().StringVar(&labs, "labs", "", "also run these labs, comma-separated, or all\n(brewput lab list), with their defaults on the study's CPU counts, each with its section in the report")
	root.Flags().BoolVar(&withLessons, "lessons", false, "also measure the seeds' claims for the report\n(as brewput lessons --quick, about a minute)")
	root.Flags().BoolVar(&withPredict, "predict", true, fmt.Sprintf("the model's predictions for 1 to %d CPUs\n(go policy), in the report", modelcli.PredictCPUs()))
	registerPlayground(root.Flags(), &playground)
	root.Flags().StringVar(&resume, "resume", "", "finish the cut-short run of this results.json\n(a main job's, in its report folder), measuring only the points it lacks, and write the report beside it")
	root.AddCommand(newRunCmd(e), newModelCmd(e), newAdviseCmd(e), newWhyCmd(e), newCalibrateCmd(e), newLabCmd(e), newReportCmd(e), newCompareCmd(e), newFitCmd(e), newBenchCmd(e), newListCmd(e), newLessonsCmd(e), newScheduleCmd(e), newStudyCmd(e), newPredictCmd(e), newPointCmd(e), newVersionCmd(e), newPlaygroundCmd(e))
	finishRoot(root, e)
	return root
}

// compactTable says what the compact table holds, for --format's usage.
const compactTable = "the measured points, the model's summarized per mode"

// claimReportDir checks and holds --out, the report's folder: refused
// where another run writes it, or a run cut short left its journal there
// that this run does not resume.
func (e *env) claimReportDir(out, resume string) error {
	if out == "" {
		return fmt.Errorf("--out: want a folder for the report, such as %s", defaultReportDir)
	}
	if err := report.CheckDir(out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := e.hold(out); err != nil {
		return err
	}
	staging := atomicfile.StagingDir(out)
	if _, err := os.Stat(staging); err != nil {
		return nil
	}
	journal := filepath.Join(staging, "results.json")
	if ji, err := os.Stat(journal); err == nil {
		if ri, err := os.Stat(resume); err == nil && os.SameFile(ri, ji) {
			return nil // the journal this run resumes
		}
		return fmt.Errorf("--out %s: a run into it was cut short and left its journal, %s: brewput --resume %s finishes it; remove %s to start anew", out, journal, journal, staging)
	}
	// A report cut short while written, which no other run holds.
	if err := os.RemoveAll(staging); err != nil {
		return fmt.Errorf("--out %s: %s is left from a run cut short and cannot be removed: %w", out, staging, err)
	}
	fmt.Fprintln(e.stderr, text.StagingRemoved(staging))
	return nil
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print brewput's module version and the Go version that built it",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(e.stdout, version())
			return err
		},
	}
}

// version says which brewput this is: the module's version (or
// "(devel)" and its commit), the Go version and the platform.
func version() string {
	v := "(unknown: built without module information)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v = cmp.Or(bi.Main.Version, "(devel)"); v == "(devel)" {
			settings := map[string]string{}
			for _, s := range bi.Settings {
				settings[s.Key] = s.Value
			}
			if rev := settings["vcs.revision"]; rev != "" {
				v += " " + rev[:min(12, len(rev))]
				if settings["vcs.modified"] == "true" {
					v += "+dirty"
				}
			}
		}
	}
	return fmt.Sprintf("brewput %s, %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func newListCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List every mode of the coffee shop, a line each",
		Example: "  brewput list",
		Args:    unknownArgs,
		RunE: func(*cobra.Command, []string) error {
			t := format.Table{Ragged: true}
			for _, f := range coffee.Families() {
				desc := f.Summary
				if f.Param() != "" {
					desc += " (N: " + f.Param() + ")"
				}
				t.Row(f.Pattern(), desc)
			}
			return t.Write(e.stdout)
		},
	}
}
