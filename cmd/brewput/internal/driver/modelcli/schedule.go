package modelcli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment/schedule"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/results/analysis"
)

// ScheduleCommand is brewput schedule apart from cobra, traces and
// pictures, so that the playground's engine draws the same schedule.
type ScheduleCommand struct {
	sf                      StudyFlags
	mf                      ModelFlags
	mode, from, Out, Format string
	Span                    time.Duration
}

// Register adds the command's flags to fs.
func (c *ScheduleCommand) Register(fs *pflag.FlagSet) {
	c.sf.RegisterOne(fs, time.Second, "the CPU count to draw, one number")
	fs.StringVar(&c.mode, "mode", "", "the mode to draw (see brewput list)")
	fs.StringVar(&c.from, "from", "model", "model, trace or model,trace\n(what to draw: the model's exact schedule, an execution trace given as TRACE, or both)")
	c.Span = schedule.Span
	fs.Var((*cliflag.Duration)(&c.Span), "span", "how much time to draw")
	ChoiceVar(fs, &c.Format, "format", "text", "what stdout gets: text or json\n(text: the picture in letters, and where the pictures went; json: each timeline's title, summary and bars, the pictures written only where --out is given)", "text or json", "text", "json")
	fs.StringVar(&c.Out, "out", ".", "folder to write the pictures to\n(schedule-MODE-NCPU-model.svg and .png; -trace for a trace's)")
	fs.Uint64Var(&c.mf.Seed, "seed", 1, "seed of the random step durations (--jitter)")
	c.mf.RegisterPolicy(fs)
}

// Plan checks the flags and args: the point, and whether to draw the
// model's schedule, a trace's, or both.
func (c *ScheduleCommand) Plan(fs *pflag.FlagSet, args []string) (s shopsweep.Spec, useModel, useTrace bool, err error) {
	if useModel, useTrace, err = parseFrom(c.from); err != nil {
		return
	}
	switch {
	case c.mode == "":
		err = fmt.Errorf("--mode: give the mode to draw, such as --mode finelocking (see brewput list)")
	case useTrace && len(args) != 1:
		err = fmt.Errorf("--from trace: give the trace file, such as brewput schedule --mode %s --from trace prof/%s-2cpu.trace", c.mode, c.mode)
	case !useTrace && len(args) > 0:
		err = fmt.Errorf("%s: a trace file is drawn with --from trace (or model,trace)", args[0])
	case c.Span < time.Millisecond || c.Span > time.Second:
		err = fmt.Errorf("--span %v: want a duration from 1ms to 1s, such as 20ms", c.Span)
	}
	if err != nil {
		return
	}
	s, err = c.sf.PlanOne(fs, host.ModelMaxCPUs, c.mode, "schedule", 6)
	if err != nil {
		return
	}
	if err = (predict.Prediction{}).Config(s, nil).Validate(); err != nil {
		err = fmt.Errorf("--mode: %w", err)
	}
	return
}

// parseFrom reads what --from says to draw.
func parseFrom(from string) (fromModel, fromTrace bool, err error) {
	for _, f := range strings.Split(from, ",") {
		switch strings.TrimSpace(f) {
		case "model":
			fromModel = true
		case "trace":
			fromTrace = true
		default:
			return false, false, fmt.Errorf("--from %q: want model, trace or model,trace", from)
		}
	}
	return fromModel, fromTrace, nil
}

// ModelTimeline is the model's exact schedule of s.
func (c *ScheduleCommand) ModelTimeline(ctx context.Context, fs *pflag.FlagSet, s shopsweep.Spec, e Env) (analysis.Timeline, error) {
	c.mf.Measure, c.mf.MaxCPUs = e.Measure, s.CPUs
	pr, err := predict.Resolve(ctx, c.mf.PredictOptions(fs), e.Tell)
	if err != nil {
		return analysis.Timeline{}, err
	}
	t, err := schedule.FromModel(pr.Config(s, nil), c.Span)
	if err != nil {
		return t, exitcode.Failure{Err: err}
	}
	return t, nil
}
