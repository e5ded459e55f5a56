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

var update = flag.Bool("update", false, "rewrite the reallibs blocks of validation/README.md and docs/own-code.md, and model/curves/checked.go")

// The blocks this command's output stands in: with every benchmark's
// rows (-rows) in validation/README.md, its totals in docs/own-code.md.
const (
	docStart = "<!-- go run ./reallibs: begin -->\n```\n"
	docEnd   = "```\n<!-- go run ./reallibs: end -->"
)

// TestDoc: validation/README.md and docs/own-code.md quote what this
// command prints now from the measurements kept, and
// model/curves/checked.go holds its tallies by kind, which predict's
// answer cites (go test ./reallibs -update rewrites all three).
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
	r, err := tallies(bin, root, filepath.Join(root, "validation", "testdata", "reallibs"), regexp.MustCompile("."))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		rows bool
	}{{filepath.Join(root, "validation", "README.md"), true}, {filepath.Join(root, "docs", "own-code.md"), false}} {
		var out bytes.Buffer
		r.write(&out, c.rows)
		docblock.Check(t, c.file, docStart, docEnd, out.String(), *update, "go test ./reallibs -update")
	}
	path := filepath.Join(root, "model", "curves", "checked.go")
	checked, err := r.checked()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, checked, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if was, err := os.ReadFile(path); err != nil || !bytes.Equal(was, checked) {
		t.Errorf("%s is not the tallies by kind this command makes now (%v); go test ./reallibs -update rewrites it", path, err)
	}
}
