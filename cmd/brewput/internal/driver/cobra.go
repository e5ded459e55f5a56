package driver

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
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
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		return fmt.Errorf("unknown command %q; did you mean %s? (brewput --help lists the commands)", args[0], format.JoinOr(near))
	}
	return fmt.Errorf("unknown command %q (brewput --help lists the commands)", args[0])
}

// didYouMean adds to an unknown flag's error the flags of cmd it might
// have meant: "unknown flag: --mdoes; did you mean --modes?". A go test
// flag misspelled with one dash, -benchh, pflag reads as shorthands
// ("unknown shorthand flag: 'b' in -benchh"): it is named as typed, and
// the flags it may have meant with one dash, as go test spells them.
func didYouMean(cmd *cobra.Command, err error) error {
	dash := "--"
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if _, typed, short := strings.Cut(err.Error(), "unknown shorthand flag: "); !ok && short {
		if _, name, ok = strings.Cut(typed, " in -"); ok {
			dash, err = "-", fmt.Errorf("unknown flag: -%s", name)
		}
	}
	if !ok {
		return err
	}
	var near []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && (format.EditDistance(name, f.Name) <= 2 || strings.HasPrefix(f.Name, name)) {
			near = append(near, dash+f.Name)
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
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return modelcli.ExplainFlag(didYouMean(cmd, err)) })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return modelcli.CheckFinite(cmd.Flags()) }
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
	c := &modelcli.ModelCommand{Answer: modelAnswer}
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Predict the modes on up to 256 virtual CPUs, in virtual time",
		Args:  unknownArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return c.Run(cmd.Context(), cmd.Flags(), e.model()) },
	}
	c.Register(cmd.Flags())
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

// A command's help comes in two lengths from one text. --help is a screen:
// the first paragraph of its long help, each flag's usage up to its first
// line break, and its examples up to the first blank line. brewput help
// COMMAND, and docs/commands.md, is the reference: all of each, a flag's
// usage joined into one sentence.

// flagsOf annotates a command whose --help leaves out the flags it shares
// with the command it names: the main job's study flags are run's; and
// flagsWhen, where set, says when those flags apply (why's, with --mode).
const (
	flagsOf   = "help-flags-of"
	flagsWhen = "help-flags-when"
)

// writeHelp writes cmd's help to w: a screen, or with full the reference.
// Its usage comes first, as go help's does.
func writeHelp(w io.Writer, cmd *cobra.Command, full bool) error {
	width := format.Width(w)
	var subs []*cobra.Command
	for _, sub := range cmd.Commands() {
		if sub.IsAvailableCommand() && sub.Name() != "help" {
			subs = append(subs, sub)
		}
	}
	var b strings.Builder
	usage := cmd.UseLine()
	if len(subs) > 0 {
		usage = cmd.CommandPath() + " [COMMAND] [flags]"
	}
	b.WriteString(usageLines("Usage: "+usage, width) + "\n\n")
	text := strings.TrimRight(cmp.Or(cmd.Long, cmd.Short), "\n")
	if !full {
		text, _, _ = strings.Cut(text, "\n\n")
	}
	b.WriteString(text + "\n")
	at, path := helpAt(cmd)
	if len(subs) > 0 {
		pad := 0
		for _, sub := range subs {
			pad = max(pad, len(sub.Name()))
		}
		b.WriteString("\nCommands:\n")
		for _, sub := range subs {
			fmt.Fprintf(&b, "  %-*s  %s\n", pad, sub.Name(), sub.Short)
		}
	}
	if flags, shared := helpFlags(cmd, full, width); flags != "" {
		head := "Flags:"
		switch when := cmd.Annotations[flagsWhen]; {
		case shared != "" && when != "":
			head = fmt.Sprintf("Flags (%[2]s, also %[1]s's: see %[1]s --help):", shared, when)
		case shared != "":
			head = fmt.Sprintf("Flags (and %[1]s's: see %[1]s --help):", shared)
		}
		b.WriteString("\n" + head + "\n" + flags)
	}
	if ex := strings.TrimRight(cmd.Example, "\n"); ex != "" {
		if !full {
			ex, _, _ = strings.Cut(ex, "\n\n")
		}
		b.WriteString("\nExamples:\n" + ex + "\n")
	}
	if !full {
		var ref strings.Builder
		if err := writeHelp(&ref, cmd, true); err == nil && ref.String() != b.String() {
			more := strings.TrimSpace(at + " help " + path)
			if len(subs) > 0 {
				more += "; a command's: " + strings.TrimSpace(more+" COMMAND")
			}
			b.WriteString("\n" + format.Wrap("The full reference: "+more+".", width, "") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// helpFlags lists cmd's flags but --help: in the reference as pflag does;
// on a screen a line each, its usage up to its first line break, and
// those it shares with the command flagsOf names (shared) left out.
func helpFlags(cmd *cobra.Command, full bool, width int) (flags, shared string) {
	list := pflag.NewFlagSet(cmd.Name(), pflag.ContinueOnError)
	var other *pflag.FlagSet
	if name := cmd.Annotations[flagsOf]; name != "" && !full {
		if c, _, err := cmd.Root().Find([]string{name}); err == nil && c != cmd {
			other, shared = c.Flags(), c.CommandPath()
		}
	}
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		if other != nil {
			if o := other.Lookup(f.Name); o != nil && !o.Hidden && o.Usage == f.Usage {
				return
			}
		}
		c := *f
		if c.DefValue == "0s" {
			c.DefValue = "0" // none, as pflag says of its own durations
		}
		list.AddFlag(&c)
	})
	if !list.HasFlags() {
		return "", ""
	}
	if full {
		list.VisitAll(func(f *pflag.Flag) { f.Usage = strings.ReplaceAll(f.Usage, "\n", " ") })
		return list.FlagUsagesWrapped(width), shared
	}
	var names, usages []string
	col := 0
	list.VisitAll(func(f *pflag.Flag) {
		name, _ := pflag.UnquoteUsage(f)
		name = strings.TrimSpace("--" + f.Name + " " + name)
		usage, _, _ := strings.Cut(f.Usage, "\n")
		names, usages = append(names, name), append(usages, strings.TrimRight(usage, ",;:")+defaultOf(f))
		col = max(col, len(name))
	})
	var b strings.Builder
	for i, name := range names {
		fmt.Fprintf(&b, "  %-*s  %s\n", col, name, format.Wrap(usages[i], width-col-4, strings.Repeat(" ", col+4)))
	}
	return b.String(), shared
}

// defaultOf is " (default X)" where pflag's help would say it of f, else "".
func defaultOf(f *pflag.Flag) string {
	one := pflag.NewFlagSet("", pflag.ContinueOnError)
	c := *f
	c.Usage = ""
	one.AddFlag(&c)
	s := strings.TrimSpace(one.FlagUsagesWrapped(0))
	if i := strings.Index(s, "(default "); i >= 0 {
		return " " + s[i:]
	}
	return ""
}

// helpCommand is brewput help [command]: the command's reference.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Print a command's full reference",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Parent().Find(args)
			if err != nil || len(rest) > 0 && !cmd.DisableFlagParsing {
				return fmt.Errorf("help: no command %q; %s --help lists them", strings.Join(args, " "), c.Parent().CommandPath())
			}
			cmd.InitDefaultHelpFlag() // as --help sees it
			return writeHelp(c.OutOrStdout(), cmd, true)
		},
	}
}

// helpAt is the command path of the help command that gives cmd's
// reference, the nearest above it, and cmd's path from there: "brewput",
// "lab logs"; "brewput study ./pkg", "why".
func helpAt(cmd *cobra.Command) (at, path string) {
	p := cmd
	for p.HasParent() && !slices.ContainsFunc(p.Commands(), func(c *cobra.Command) bool { return c.Name() == "help" }) {
		p = p.Parent()
	}
	return p.CommandPath(), strings.TrimSpace(strings.TrimPrefix(cmd.CommandPath(), p.CommandPath()))
}

// usageLines wraps a usage line to width between its words and bracketed
// groups, never inside a group: "[-- go test flags]" stays whole.
func usageLines(usage string, width int) string {
	var groups []string
	depth, start := 0, 0
	for i, r := range usage {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ' ':
			if depth == 0 {
				groups, start = append(groups, usage[start:i]), i+1
			}
		}
	}
	groups = append(groups, usage[start:])
	line, lines := "", []string(nil)
	for _, g := range groups {
		if line != "" && len(line)+1+len(g) > width {
			lines, line = append(lines, line), "  "+g
			continue
		}
		line = strings.TrimPrefix(line+" "+g, " ")
	}
	return strings.Join(append(lines, line), "\n")
}
