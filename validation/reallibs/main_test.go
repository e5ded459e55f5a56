package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/brewput/brewput/validation/internal/docblock"
)

var update = flag.Bool("update", false, "rewrite docs/model.md's reallibs block")

// The block of docs/model.md this command's output stands in.
const (
	docStart = "<!-- go run ./reallibs: begin -->\n```\n"
	docEnd   = "```\n<!-- go run ./reallibs: end -->"
)

// TestDoc: docs/model.md quotes what this command prints now from the
// measurements kept, on the repository's calibration (go test ./reallibs
// -update rewrites it).
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
	var out bytes.Buffer
	testdata := filepath.Join(root, "validation", "testdata")
	if err := report(&out, bin, root, filepath.Join(testdata, "reallibs"), filepath.Join(testdata, "calibration.json"), regexp.MustCompile(".")); err != nil {
		t.Fatal(err)
	}
	docblock.Check(t, filepath.Join(root, "docs", "model.md"), docStart, docEnd, out.String(), *update, "go test ./reallibs -update")
}
