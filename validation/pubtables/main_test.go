package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/brewput/brewput/validation/internal/docblock"
)

var update = flag.Bool("update", false, "rewrite the pubtables block of validation/README.md, and model/curves/checkedpast.go")

// The blocks this command's output stands in.
const (
	docStart = "<!-- go run ./pubtables: begin -->\n```\n"
	docEnd   = "```\n<!-- go run ./pubtables: end -->"
)

// TestDoc: validation/README.md quotes what this command prints now from
// the measurements kept, and model/curves/checkedpast.go holds its
// tallies past 16 CPUs by kind, which predict's answer cites (go test
// ./pubtables -update rewrites both).
func TestDoc(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	r := predictAll(root)
	var out bytes.Buffer
	r.write(&out)
	docblock.Check(t, filepath.Join(root, "validation", "README.md"), docStart, docEnd, out.String(), *update, "go test ./pubtables -update")
	path := filepath.Join(root, "model", "curves", "checkedpast.go")
	past, err := r.checkedPast()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, past, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if was, err := os.ReadFile(path); err != nil || !bytes.Equal(was, past) {
		t.Errorf("%s is not the tallies past 16 CPUs this command makes now (%v); go test ./pubtables -update rewrites it", path, err)
	}
}
