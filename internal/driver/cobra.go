//go:build !js

package driver

// The glue between cobra and the commands, out of the playground's build,
// which runs its commands on bare flag sets.

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// unknownArgs turns stray arguments into a usage error naming them.
func unknownArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q; see %s --help", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

// unknownCommand refuses an argument to the root, naming the commands it
// might have meant: "unknown command "modle"; did you mean model?".
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	s := fmt.Sprintf("unknown command %q", args[0])
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		s += "; did you mean " + format.JoinOr(near) + "?"
	}
	return errors.New(s + " (brewput --help lists the commands)")
}

// didYouMean adds to an unknown flag's error the flags of cmd it might
// have meant: "unknown flag: --mdoes; did you mean --modes?".
func didYouMean(cmd *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	var near []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && (format.EditDistance(name, f.Name) <= 2 || strings.HasPrefix(f.Name, name)) {
			near = append(near, "--"+f.Name)
		}
	})
	if len(near) == 0 {
		return err
	}
	return fmt.Errorf("%w; did you mean %s?", err, format.JoinOr(near))
}

// finishRoot gives root and its commands e's streams, flag errors that say
// what a flag accepts, non-finite numbers refused, and their long help.
func finishRoot(root *cobra.Command, e *env) {
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return explainFlag(didYouMean(cmd, err)) })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return checkFinite(cmd.Flags()) }
	root.CompletionOptions.DisableDefaultCmd = true
	root.SuggestionsMinimumDistance = 2 // "did you mean model?" for modle
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) { writeHelp(cmd.OutOrStdout(), cmd, false) })
	root.SetUsageFunc(func(cmd *cobra.Command) error { return writeHelp(cmd.OutOrStderr(), cmd, false) })
	help := helpCommand()
	root.SetHelpCommand(help)
	root.AddCommand(help) // now, not when it runs, so that every command's help names it
	setHelp(root)
}

// exit tells err on a line naming the program (or the study) and maps it
// to an exit status (exitcode.Of).
func (e *env) exit(ctx context.Context, err error) int {
	var se studyError
	switch {
	case errors.As(err, &se):
		format.Lines(e.stderr, se.study+": ")(se.error.Error())
	case err != nil:
		format.Lines(e.stderr, "brewput: ")(err.Error())
	}
	return exitcode.Of(err, exitcode.OfSignal(ctx))
}

func newModelCmd(e *env) *cobra.Command {
	c := &modelCommand{answer: modelAnswer}
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Predict the modes on up to 256 virtual CPUs, in virtual time",
		Args:  unknownArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return c.run(cmd.Context(), cmd.Flags(), e) },
	}
	c.register(cmd.Flags())
	return cmd
}

// helpFiles hold the commands' long help and examples.
//
//go:embed help/*.txt help/study/*.txt
var helpFiles embed.FS

// setHelp gives root and its commands their help and examples, if any.
func setHelp(root *cobra.Command) {
	for _, cmd := range append([]*cobra.Command{root}, root.Commands()...) {
		if b, err := fs.ReadFile(helpFiles, "help/"+cmd.Name()+".txt"); err == nil {
			cmd.Long = string(b)
		}
		if b, err := fs.ReadFile(helpFiles, "help/"+cmd.Name()+".example.txt"); err == nil {
			cmd.Example = string(b)
		}
	}
}

// modelAnswer is what brewput model prints by default.
func modelAnswer(w io.Writer, points []results.Point) error {
	return text.WriteAnswer(w, points, analyze.Answer(points, coffee.Declared{}), nil)
}
