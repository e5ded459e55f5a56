package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brewput/brewput/validation/internal/docblock"
)

var update = flag.Bool("update", false, "rewrite validation/README.md's reallibs block and docs/model.md's quote of its verdict")

// The blocks this command's output stands in: the whole of it in
// validation/README.md, its verdict (its last lines, from the marks' key)
// in docs/model.md.
const (
	readmeStart = "<!-- go run ./reallibs: begin -->\n```\n"
	readmeEnd   = "```\n<!-- go run ./reallibs: end -->"
	docStart    = "<!-- go run ./reallibs, its verdict: begin -->\n```\n"
	docEnd      = "```\n<!-- go run ./reallibs, its verdict: end -->"
	verdict     = "* outside the band"
)

// TestDoc: validation/README.md quotes what this command prints now from
// the measurements kept, on the repository's calibration, and
// docs/model.md its verdict (go test ./reallibs -update rewrites both).
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
	got := out.String()
	docblock.Check(t, filepath.Join(root, "validation", "README.md"), readmeStart, readmeEnd, got, *update, "go test ./reallibs -update")
	i := strings.LastIndex(got, verdict)
	if i < 0 {
		t.Fatalf("no %q in the output", verdict)
	}
	docblock.Check(t, filepath.Join(root, "docs", "model.md"), docStart, docEnd, got[i:], *update, "go test ./reallibs -update")
}
