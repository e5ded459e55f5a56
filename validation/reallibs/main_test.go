package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/brewput/brewput/validation/internal/docblock"
)

var update = flag.Bool("update", false, "rewrite docs/own-code.md's reallibs block and model/curves/checked.go")

// The block of docs/own-code.md this command's output stands in.
const (
	docStart = "<!-- go run ./reallibs: begin -->\n```\n"
	docEnd   = "```\n<!-- go run ./reallibs: end -->"
)

// TestDoc: docs/own-code.md quotes what this command prints now from the
// measurements kept, and model/curves/checked.go holds its tallies by
// kind, which predict's answer cites (go test ./reallibs -update
// rewrites both).
func TestDoc(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin, done, err := build(root)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	r, err := tally(bin, root, filepath.Join(root, "validation", "testdata", "reallibs"), regexp.MustCompile("."))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.write(&out, false)
	docblock.Check(t, filepath.Join(root, "docs", "own-code.md"), docStart, docEnd, out.String(), *update, "go test ./reallibs -update")
	path := filepath.Join(root, "model", "curves", "checked.go")
	if *update {
		if err := os.WriteFile(path, r.checked(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if was, err := os.ReadFile(path); err != nil || !bytes.Equal(was, r.checked()) {
		t.Errorf("%s is not the tallies by kind this command makes now (%v); go test ./reallibs -update rewrites it", path, err)
	}
}
