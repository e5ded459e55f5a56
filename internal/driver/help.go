//go:build !js

package driver

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/internal/base/format"
)

// A command's help comes in two lengths from one text. --help is a screen:
// the first paragraph of its long help, each flag's usage up to its first
// line break, and its examples up to the first blank line. brewput help
// COMMAND, and docs/commands.md, is the reference: all of each, a flag's
// usage joined into one sentence.

// flagsOf annotates a command whose --help leaves out the flags it shares
// with the command it names: the main job's study flags are run's.
const flagsOf = "help-flags-of"

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
		if shared != "" {
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
		if c, _, err := cmd.Find([]string{name}); err == nil && c != cmd {
			other, shared = c.Flags(), c.CommandPath()
		}
	}
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		if other != nil {
			if o := other.Lookup(f.Name); o != nil && o.Usage == f.Usage {
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
