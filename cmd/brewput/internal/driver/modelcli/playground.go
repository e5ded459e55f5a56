package modelcli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/analysis"
)

// Playground runs args, a command line of brewput model or schedule as the
// playground's page gives it, each printing JSON, on a bare flag set, and
// returns the exit status: the CLI's code and words, without cobra and the
// rest of the CLI, which would make the page's engine larger.
func Playground(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := playground(ctx, args, Env{Stdout: stdout, Stderr: stderr})
	if err != nil {
		format.Lines(stderr, "brewput: ")(err.Error())
	}
	return exitcode.Of(err, 0)
}

func playground(ctx context.Context, args []string, e Env) error {
	if len(args) == 0 {
		return fmt.Errorf("the playground runs brewput model or schedule, got no command")
	}
	fs := pflag.NewFlagSet(args[0], pflag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	var run func() error
	switch args[0] {
	case "model":
		c := &ModelCommand{}
		c.Register(fs)
		run = func() error {
			switch {
			case fs.NArg() > 0:
				return fmt.Errorf("brewput model takes no arguments, got %q; see brewput model --help", fs.Arg(0))
			case c.format != "json":
				return fmt.Errorf("--format %s: the playground prints brewput model's JSON only (--format json)", c.format)
			case fs.Changed("out"):
				return errors.New("--out: the playground writes no files")
			}
			return c.Run(ctx, fs, e)
		}
	case "schedule":
		c := &ScheduleCommand{}
		c.Register(fs)
		run = func() error { return c.runJSON(ctx, fs, e) }
	default:
		return fmt.Errorf("the playground runs brewput model or schedule, got %q", args[0])
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return ExplainFlag(err)
	}
	if err := CheckFinite(fs); err != nil {
		return err
	}
	return run()
}

// runJSON is brewput schedule --format json of the model's schedule.
func (c *ScheduleCommand) runJSON(ctx context.Context, fs *pflag.FlagSet, e Env) error {
	if c.from != "model" || fs.Changed("out") || c.Format != "json" {
		return fmt.Errorf("the playground draws the model's schedule as JSON only (--from model --format json, no --out)")
	}
	s, _, _, err := c.Plan(fs, fs.Args())
	if err != nil {
		return err
	}
	t, err := c.ModelTimeline(ctx, fs, s, e)
	if err != nil {
		return err
	}
	return text.WriteTimelinesJSON(e.Stdout, []analysis.Timeline{t})
}
