package driver

import (
	"io"
	"io/fs"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/pflag"

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

// TestHelpIsAScreen: every command's --help, the labs' and the shop
// study's included, is a screen — the root's at most 40 lines, any other
// at most 60 — naming every flag the command has, and it and the
// reference fit format.Columns.
func TestHelpIsAScreen(t *testing.T) {
	helps := everyHelp(t)
	for _, h := range helps {
		most := 60
		if h.name == "brewput" {
			most = 40
		}
		if n := strings.Count(h.screen, "\n"); n > most {
			t.Errorf("%s --help: %d lines, want at most %d:\n%s", h.name, n, most, h.screen)
		}
		for _, text := range []string{h.screen, h.reference} {
			for line := range strings.Lines(text) {
				if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > format.Columns {
					t.Errorf("%s: a line of %d columns: %q", h.name, n, line)
				}
			}
		}
		// Every flag is on the screen, but those it shares with the
		// command it names for them.
		h.cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" || strings.Contains(h.screen, "\n  --"+f.Name+" ") || strings.HasSuffix(h.screen, "--"+f.Name+"\n") {
				return
			}
			if of := h.cmd.Annotations[flagsOf]; of != "" {
				if c, _, err := h.cmd.Root().Find([]string{of}); err == nil && c.Flags().Lookup(f.Name) != nil && !c.Flags().Lookup(f.Name).Hidden {
					return
				}
			}
			t.Errorf("%s --help does not name --%s", h.name, f.Name)
		})
		// The screen's text is the reference's first paragraph.
		if screen, ref := strings.SplitN(h.screen, "\n\n", 3), strings.SplitN(h.reference, "\n\n", 3); len(screen) < 2 || len(ref) < 2 || screen[1] != ref[1] {
			t.Errorf("%s: the reference does not begin as --help does", h.name)
		}
	}
	if len(helps) < 30 {
		t.Errorf("only %d commands' help checked", len(helps))
	}
	// The root's commands are on its first screen, 24 lines.
	first := strings.Join(strings.SplitAfter(helps[0].screen, "\n")[:24], "")
	for _, sub := range helps[0].cmd.Commands() {
		if sub.IsAvailableCommand() && sub.Name() != "help" && !strings.Contains(first, "\n  "+sub.Name()+" ") {
			t.Errorf("brewput --help does not list %s in its first 24 lines", sub.Name())
		}
	}
}
