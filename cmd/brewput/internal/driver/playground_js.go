//go:build js

package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/analysis"
)

// Main is the playground's engine, brewput built for js/wasm: the page
// calls brewputRun(["model", flags...]), a Promise of {stdout, stderr,
// code} as the command line gives them (and said, the points with
// report/text's words: sayPoints), its files read from the page's
// in-memory file system.
func Main() int {
	js.Global().Set("brewputRun", js.FuncOf(func(_ js.Value, a []js.Value) any {
		args := make([]string, a[0].Length())
		for i := range args {
			args[i] = a[0].Index(i).String()
		}
		var start js.Func
		start = js.FuncOf(func(_ js.Value, p []js.Value) any {
			resolve := p[0]
			// Its own goroutine keeps the event loop, which timers
			// need, free.
			go func() {
				defer start.Release()
				var stdout, stderr bytes.Buffer
				code := runPlayground(args, &env{stdin: &bytes.Buffer{}, stdout: &stdout, stderr: &stderr})
				r := js.Global().Get("Object").New()
				r.Set("stdout", stdout.String())
				r.Set("said", string(sayPoints(stdout.Bytes()))) // the points with their words
				r.Set("stderr", stderr.String())
				r.Set("code", code)
				resolve.Invoke(r)
			}()
			return nil
		})
		return js.Global().Get("Promise").New(start)
	}))
	select {}
}

// runPlayground runs args, a command line of brewput model or schedule,
// as the CLI does, on a bare flag set: cobra would make the module larger.
func runPlayground(args []string, e *env) int {
	err := func() error {
		if len(args) == 0 {
			return fmt.Errorf("the playground runs brewput model or schedule, got no command")
		}
		fs := pflag.NewFlagSet(args[0], pflag.ContinueOnError)
		fs.SetOutput(e.stderr)
		var run func() error
		switch args[0] {
		case "model":
			c := &modelCommand{}
			c.register(fs)
			run = func() error {
				if fs.NArg() > 0 {
					return fmt.Errorf("brewput model takes no arguments, got %q; see brewput model --help", fs.Arg(0))
				}
				return c.run(context.Background(), fs, e)
			}
		case "schedule":
			c := &scheduleCommand{}
			c.register(fs)
			run = func() error { return c.runJSON(fs, e) }
		default:
			return fmt.Errorf("the playground runs brewput model or schedule, got %q", args[0])
		}
		if err := fs.Parse(args[1:]); err != nil {
			if errors.Is(err, pflag.ErrHelp) {
				return nil
			}
			return explainFlag(err)
		}
		if err := checkFinite(fs); err != nil {
			return err
		}
		return run()
	}()
	if err != nil {
		fmt.Fprintf(e.stderr, "brewput: %v\n", err)
	}
	return exitcode.Of(err, 0)
}

// runJSON is brewput schedule --format json of the model's schedule.
func (c *scheduleCommand) runJSON(fs *pflag.FlagSet, e *env) error {
	if c.from != "model" || fs.Changed("out") || c.format != "json" {
		return fmt.Errorf("the playground draws the model's schedule as JSON only (--from model --format json, no --out)")
	}
	s, _, _, err := c.plan(fs, fs.Args())
	if err != nil {
		return err
	}
	t, err := c.modelTimeline(context.Background(), fs, s, e)
	if err != nil {
		return err
	}
	return text.WriteTimelinesJSON(e.stdout, []analysis.Timeline{t})
}
