package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/validation/internal/docblock"
)

var update = flag.Bool("update", false, "rewrite validation/README.md's published block and docs/model.md's quote of its verdicts")

// The blocks this command's output stands in: the whole of it in
// validation/README.md, its verdicts (from the first "done when") in
// docs/model.md.
const (
	readmeStart = "<!-- go run ./published: begin -->\n```\n"
	readmeEnd   = "```\n<!-- go run ./published: end -->"
	docStart    = "<!-- go run ./published, its verdicts: begin -->\n```\n"
	docEnd      = "```\n<!-- go run ./published, its verdicts: end -->"
	verdicts    = "done when (issue 54)"
)

// TestDoc: validation/README.md quotes what this command prints now, on
// the repository's calibration, and docs/model.md its verdicts (go test
// ./published -update rewrites both).
func TestDoc(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report(&out, root, filepath.Join(root, "validation", "testdata", "calibration.json"), "", false)
	got := out.String()
	docblock.Check(t, filepath.Join(root, "validation", "README.md"), readmeStart, readmeEnd, got, *update, "go test ./published -update")
	i := strings.Index(got, verdicts)
	if i < 0 {
		t.Fatalf("no %q in the output", verdicts)
	}
	docblock.Check(t, filepath.Join(root, "docs", "model.md"), docStart, docEnd, got[i:], *update, "go test ./published -update")
}
