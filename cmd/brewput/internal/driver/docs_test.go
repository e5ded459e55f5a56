package driver

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// commandsDoc is the command reference, built from the commands' help:
// go test ./cmd/brewput/internal/driver -run TestDocsCommands -update rewrites it.
var commandsDoc = filepath.Join("..", "..", "..", "..", "docs", "commands.md")

// TestDocsCommands: docs/commands.md is every command's help as brewput
// prints it now, so that the reference cannot drift from the CLI.
func TestDocsCommands(t *testing.T) {
	t.Parallel()
	matchFile(t, commandsDoc, commandReference(t),
		"docs/commands.md differs from the commands' help", "go test ./cmd/brewput/internal/driver -run TestDocsCommands -update")
}

// commandPaths lists every command a user can run, the root first, then
// each command followed by its subcommands, in cobra's order (by name).
func commandPaths() [][]string {
	root := newRoot(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			walk(sub, append(slices.Clone(path), sub.Name()))
		}
	}
	walk(root, nil)
	return paths
}

// helpOf is one command's help as brewput prints it: screen, what --help
// prints, and reference, what brewput help COMMAND prints.
type helpOf struct {
	name, short       string
	screen, reference string
	cmd               *cobra.Command
}

// everyHelp is every command's help, the root first, then each command
// and its subcommands in cobra's order (by name), a study's commands as
// the cache example's (brewput study ./examples/cache/study …). What
// depends on the machine's CPU count is hidden as in the golden help
// (machineDefaults).
func everyHelp(t *testing.T) []helpOf {
	t.Helper()
	root := newRoot(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	var helps []helpOf
	run := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitOK || stderr != "" {
			t.Fatalf("brewput %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
		return machineDefaults(stdout)
	}
	for _, path := range commandPaths() {
		name := strings.TrimSpace("brewput " + strings.Join(path, " "))
		cmd := root
		if len(path) > 0 {
			var err error
			if cmd, _, err = root.Find(path); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		helps = append(helps, helpOf{name, cmd.Short, run(append(slices.Clone(path), "--help")...), run(append([]string{"help"}, path...)...), cmd})
		if name != "brewput study" {
			continue
		}
		const pkg = "./examples/cache/study"
		prog := buildCache(t)
		tree := studyCmds(&env{}, prog, pkg)
		for _, cmd := range append([]*cobra.Command{tree}, tree.Commands()...) {
			if cmd.Name() == "help" {
				continue
			}
			var sub []string
			if cmd != tree {
				sub = []string{cmd.Name()}
			}
			run := func(args ...string) string {
				var out, errOut strings.Builder
				e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
				if code := e.exit(context.Background(), runStudy(context.Background(), e, prog, args)); code != exitOK || errOut.Len() > 0 {
					t.Fatalf("brewput study %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut.String())
				}
				return machineDefaults(out.String())
			}
			helps = append(helps, helpOf{strings.TrimSpace("brewput study " + pkg + " " + strings.Join(sub, " ")), cmd.Short,
				run(append(append([]string{pkg}, sub...), "--help")...), run(append([]string{pkg, "help"}, sub...)...), cmd})
		}
	}
	return helps
}

// commandReference is docs/commands.md: a table of the commands, then a
// heading per command with its reference in a code block.
func commandReference(t *testing.T) string {
	t.Helper()
	var index, body strings.Builder
	for _, h := range everyHelp(t) {
		if strings.Contains(h.reference, "```") {
			t.Fatalf("brewput help %s holds a code fence, which would break the page", h.name)
		}
		fmt.Fprintf(&index, "| [`%s`](#%s) | %s |\n", h.name, strings.NewReplacer(" ", "-", ".", "", "/", "").Replace(h.name), strings.ReplaceAll(h.short, "|", `\|`))
		fmt.Fprintf(&body, "\n## %s\n\n```text\n%s", h.name, h.reference)
		if !strings.HasSuffix(h.reference, "\n") {
			body.WriteString("\n")
		}
		body.WriteString("```\n")
	}
	return "# Command reference\n\n" +
		"Every brewput command's full help, as `brewput help COMMAND` prints it (`brewput COMMAND --help` prints its first\n" +
		"paragraph, each flag's first words and two examples).\n\n" +
		"This file is generated from the CLI by `TestDocsCommands` (cmd/brewput/internal/driver/docs_test.go), which fails when it\n" +
		"differs from the commands' help: do not edit it; `go test ./cmd/brewput/internal/driver -run TestDocsCommands -update`\n" +
		"rewrites it. Defaults that depend on the machine's CPU count are shown as N.\n\n" +
		"| command | what it does |\n|---|---|\n" + index.String() + body.String()
}

// TestReadmeCommands: README.md, which tells each kind of user where to
// start, names every command brewput has ("brewput NAME"), so that no
// command is left without a way in.
func TestReadmeCommands(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range commandPaths() {
		if len(path) != 1 {
			continue
		}
		if !regexp.MustCompile(`\bbrewput ` + regexp.QuoteMeta(path[0]) + `\b`).Match(data) {
			t.Errorf("README.md does not name brewput %s: say which user it serves and where to read on", path[0])
		}
	}
}
