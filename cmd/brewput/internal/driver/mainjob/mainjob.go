// Package mainjob is brewput's main job, run with no command: it measures
// a study of the shop's modes into the report folder's journal, adds the
// model's predictions, labs and lessons asked for, and writes the report.
// Rerender renders it from points read back (brewput report).
package mainjob

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
	"github.com/brewput/brewput/results/chartspec"
	"github.com/brewput/brewput/results/lesson"
)

// Job is a main job, its options already checked.
type Job struct {
	Study  *shopsweep.Batch
	Have   []results.Point // the points of the journal Resume names
	Resume string
	Plan   results.Plan // the first line of the journal
	Dir    string       // the report's folder
	// Measure measures what have lack of st, handing each point to add
	// as it comes (shopsweep.Runner.MeasureRest).
	Measure func(ctx context.Context, st *shopsweep.Batch, have []results.Point, add func(*results.Point) error) ([]results.Point, error)
	// Prediction, if not nil, predicts the modes on 1 to PredictCPUs
	// CPUs, and its policy profiles the measured points (else fifo's).
	Prediction     *predict.Prediction
	PredictCPUs    int
	Labs           []lab.Lab                   // run at their defaults on the study's CPU counts
	Figures        map[string]chartspec.Figure // the labs' (lab.Figures)
	Lessons        func(ctx context.Context) ([]lesson.Result, error)
	Full           bool   // every point in the table, not the compact one
	Playground     string // see PlaygroundFor
	Stdout, Stderr io.Writer
}

// Run runs the job. Interrupted, or on an error, it stops measuring and
// writes the report of what it has, which says it was cut short.
func (j Job) Run(ctx context.Context) error {
	policy := limits.Fifo() // the causal profiles', the calibration's where there is one
	if j.Prediction != nil {
		policy = j.Prediction.Policy
	}
	// The journal is kept where the report is assembled, so that the
	// folder is replaced whole or not at all.
	staging := atomicfile.StagingDir(j.Dir)
	jr := &outfile.Sink{Stderr: j.Stderr, Out: outfile.InFolder(staging, j.Plan), AnnotateEach: true,
		Annotate: func(points []results.Point) error { return limits.Annotate(points, policy) }}
	if j.Resume != "" {
		path, err := stageJournal(j.Resume, staging)
		if err == nil {
			jr.Out, _, err = outfile.Resume(path)
		}
		if err != nil {
			return fmt.Errorf("--resume: %w", err)
		}
	}
	defer jr.Out.Close()
	measured, runErr := j.Measure(ctx, j.Study, j.Have, jr.Add)
	points := append(j.Have, measured...)
	if len(points) > 0 && j.Prediction != nil && runErr == nil {
		preds := j.Prediction.Study(ctx, j.Study, j.PredictCPUs, func(err error) { format.Lines(j.Stderr, "")(err.Error()) })
		for i := range preds {
			if err := jr.Add(&preds[i]); err != nil {
				runErr = exitcode.Failure{Err: err}
				break
			}
		}
		runErr = cmp.Or(runErr, ctx.Err())
		points = append(points, preds...)
	}
	if runErr == nil && len(j.Labs) > 0 {
		var labPoints []results.Point
		lctx := lab.WithRetry(lab.WithPoints(ctx, func(p results.Point) error { return jr.Add(&p) }), j.Study.Retry)
		labPoints, runErr = lab.RunEach(lctx, j.Labs, j.Study.CPUs(), text.LabLines(j.Stderr, "lab "))
		points = append(points, labPoints...)
	}
	var verdicts []lesson.Result
	var lessonsErr error
	if runErr == nil && j.Lessons != nil {
		verdicts, lessonsErr = j.Lessons(ctx)
	}
	if len(points) > 0 {
		opt := report.Options{Figures: j.Figures, Lessons: verdicts, Playground: PlaygroundFor(j.Playground, j.Dir), Modes: coffee.Declared{}}
		if runErr != nil {
			opt.Plan = &j.Plan // cut short: the page says so, results.json keeps the plan
		}
		jr.Out.Close()
		a, err := experiment.Analyze(points, experiment.Options{Policy: policy, Log: j.Stderr})
		if err == nil {
			opt.Analysis = a
			err = report.Write(j.Stdout, j.Dir, points, opt, j.Full)
		}
		if err != nil {
			if _, serr := os.Stat(jr.Out.Path); serr == nil {
				err = fmt.Errorf("%w; %s is left as it was, and the points measured are in %s (brewput --resume %[3]s writes the report once there is room)", err, j.Dir, jr.Out.Path)
			}
			return exitcode.Failure{Err: err}
		}
	}
	if runErr == nil && lessonsErr != nil {
		return lessonsErr
	}
	return exitcode.Measured(runErr, len(j.Have)+len(measured), j.Study.Total())
}

// Analyzer makes the analysis of points (experiment.Analyze).
type Analyzer func(points []results.Point, opt experiment.Options) (*analysis.Analysis, error)

// Resume reads the study, measured points and plan of a main job's journal.
func Resume(path string) (*shopsweep.Batch, []results.Point, results.Plan, error) {
	f, err := results.Open(path)
	if err != nil {
		return nil, nil, results.Plan{}, fmt.Errorf("--resume: %w", err)
	}
	if f.Plan == nil {
		return nil, nil, results.Plan{}, fmt.Errorf("--resume %s: not a journal of a run cut short (it has no plan on its first line): nothing to resume", path)
	}
	st, err := shopsweep.BatchOf(f.Plan, "brewput")
	if err != nil {
		return nil, nil, results.Plan{}, fmt.Errorf("--resume %s: %w", path, err)
	}
	var measured []results.Point
	for _, p := range f.Points {
		if p.Kind == results.KindShop && !p.IsModel() {
			measured = append(measured, p)
		}
	}
	return st, measured, *f.Plan, nil
}

// Rerender renders the report of points read back into dir as the main
// job does; points without their analysis are analysed under fifo.
func Rerender(w, log io.Writer, dir string, in report.Inputs, figures map[string]chartspec.Figure, full bool, playground string, analyzer Analyzer) error {
	opt := report.Options{Figures: figures, Lessons: in.Lessons, Plan: in.Plan, Playground: PlaygroundFor(playground, dir), Analysis: in.Analysis,
		Modes: coffee.Declared{}}
	if in.Plan != nil {
		fmt.Fprintln(log, text.CutShort(*in.Plan, in.Points))
	}
	if !opt.Analysis.For(in.Points) {
		a, err := analyzer(in.Points, experiment.Options{Policy: limits.Fifo(), Log: log})
		if err != nil {
			return err
		}
		opt.Analysis = a
	}
	return report.Write(w, dir, in.Points, opt, full)
}

// PlaygroundDir is the folder brewput playground writes to by default.
const PlaygroundDir = "brewput-playground"

// PlaygroundFor is the playground's address: given, or beside dir, if any.
func PlaygroundFor(given, dir string) string {
	if given != "" {
		return given
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(abs), PlaygroundDir, "index.html")); err != nil {
		return ""
	}
	return "../" + PlaygroundDir + "/index.html"
}

// stageJournal copies the journal at path into staging, so that the
// report stays until the new one replaces it, and returns its path there.
func stageJournal(path, staging string) (string, error) {
	staged := filepath.Join(staging, "results.json")
	a, errA := filepath.Abs(path)
	b, errB := filepath.Abs(staged)
	if errA == nil && errB == nil && a == b {
		return staged, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(staged, data); err != nil {
		return "", err
	}
	return staged, nil
}
