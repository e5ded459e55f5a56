package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"github.com/brewput/brewput/validation/internal/docblock"
)

var update = flag.Bool("update", false, "rewrite docs/model.md's published block")

// The block of docs/model.md this command's output stands in.
const (
	docStart = "<!-- go run ./published: begin -->\n```\n"
	docEnd   = "```\n<!-- go run ./published: end -->"
)

// TestDoc: docs/model.md quotes what this command prints now, on the
// repository's calibration (go test ./published -update rewrites it).
func TestDoc(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report(&out, root, filepath.Join(root, "validation", "testdata", "calibration.json"), "", false)
	docblock.Check(t, filepath.Join(root, "docs", "model.md"), docStart, docEnd, out.String(), *update, "go test ./published -update")
}
