package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee/shopsweep"
	modelsched "github.com/brewput/brewput/experiment/schedule"
	"github.com/brewput/brewput/explain/schedule"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/results/analysis"
)

// scheduleCommand is brewput schedule apart from cobra and pictures, so
// that the playground's engine draws the same schedule.
type scheduleCommand struct {
	sf                      studyFlags
	mf                      modelFlags
	mode, from, out, format string
	span                    time.Duration
}

func (c *scheduleCommand) register(fs *pflag.FlagSet) {
	c.sf.registerOne(fs, time.Second, "the CPU count to draw, one number")
	fs.StringVar(&c.mode, "mode", "", "the mode to draw (see brewput list)")
	fs.StringVar(&c.from, "from", "model", "model, trace or model,trace\n(what to draw: the model's exact schedule, an execution trace given as TRACE, or both)")
	c.span = schedule.Span
	fs.Var((*cliflag.Duration)(&c.span), "span", "how much time to draw")
	choiceVar(fs, &c.format, "format", "text", "what stdout gets: text or json\n(text: the picture in letters, and where the pictures went; json: each timeline's title, summary and bars, the pictures written only where --out is given)", "text or json", "text", "json")
	fs.StringVar(&c.out, "out", ".", "folder to write the pictures to\n(schedule-MODE-NCPU-model.svg and .png; -trace for a trace's)")
	fs.Uint64Var(&c.mf.Seed, "seed", 1, "seed of the random step durations (--jitter)")
	c.mf.registerPolicy(fs)
}

// plan checks the flags and args: the point, and whether to draw the
// model's schedule, a trace's, or both.
func (c *scheduleCommand) plan(fs *pflag.FlagSet, args []string) (s shopsweep.Spec, useModel, useTrace bool, err error) {
	if useModel, useTrace, err = schedule.ParseFrom(c.from); err != nil {
		return
	}
	switch {
	case c.mode == "":
		err = fmt.Errorf("--mode: give the mode to draw, such as --mode finelocking (see brewput list)")
	case useTrace && len(args) != 1:
		err = fmt.Errorf("--from trace: give the trace file, such as brewput schedule --mode %s --from trace prof/%s-2cpu.trace", c.mode, c.mode)
	case !useTrace && len(args) > 0:
		err = fmt.Errorf("%s: a trace file is drawn with --from trace (or model,trace)", args[0])
	case c.span < time.Millisecond || c.span > time.Second:
		err = fmt.Errorf("--span %v: want a duration from 1ms to 1s, such as 20ms", c.span)
	}
	if err != nil {
		return
	}
	s, err = c.sf.planOne(fs, host.ModelMaxCPUs, c.mode, "schedule", 6)
	if err != nil {
		return
	}
	if err = (predict.Prediction{}).Config(s, nil).Validate(); err != nil {
		err = fmt.Errorf("--mode: %w", err)
	}
	return
}

// modelTimeline is the model's exact schedule of s.
func (c *scheduleCommand) modelTimeline(ctx context.Context, fs *pflag.FlagSet, s shopsweep.Spec, e *env) (analysis.Timeline, error) {
	c.mf.Measure, c.mf.MaxCPUs = e.calibrateCosts, s.CPUs
	pr, err := predict.Resolve(ctx, c.mf.options(fs), e.tell)
	if err != nil {
		return analysis.Timeline{}, err
	}
	t, err := modelsched.FromModel(pr.Config(s, nil), c.span)
	return t, failed(err)
}
