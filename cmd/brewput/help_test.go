package main

import (
	"context"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/base/format"
)

// Every help file is some command's, and that command shows it: a renamed
// command cannot silently lose its help.
func TestHelpFiles(t *testing.T) {
	root := newRoot(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	files, err := fs.Glob(helpFiles, "help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("help files: %v, %v", files, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt"), ".example")
		cmd := root
		if name != root.Name() {
			if cmd, _, err = root.Find([]string{name}); err != nil || cmd.Name() != name {
				t.Errorf("%s: no command %s", f, name)
				continue
			}
		}
		b, _ := fs.ReadFile(helpFiles, f)
		shown := cmd.Long
		if strings.HasSuffix(f, ".example.txt") {
			shown = cmd.Example
		}
		if shown != string(b) {
			t.Errorf("%s: brewput %s shows other help than the file's", f, name)
		}
	}
}

// TestHelpFitsTheTerminal: every command's help, the labs' and the shop
// study's included, fits format.Columns.
func TestHelpFitsTheTerminal(t *testing.T) {
	var paths [][]string
	var walk func(cmd *cobra.Command, path []string)
	walk = func(cmd *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range cmd.Commands() {
			if !sub.Hidden {
				walk(sub, append(slices.Clone(path), sub.Name()))
			}
		}
	}
	walk(newRoot(&env{}), nil)
	for _, path := range paths {
		args := append(slices.Clone(path), "--help")
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitOK {
			t.Errorf("brewput %s: exit %d: %s", strings.Join(args, " "), code, stderr)
			continue
		}
		for line := range strings.Lines(stdout) {
			if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > format.Columns {
				t.Errorf("brewput %s: a line of %d columns: %q", strings.Join(args, " "), n, line)
			}
		}
	}
	if len(paths) < 15 {
		t.Errorf("only %d commands' help checked", len(paths))
	}
}
