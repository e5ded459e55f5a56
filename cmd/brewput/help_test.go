package main

import (
	"io"
	"io/fs"
	"strings"
	"testing"
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
