package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	doc := filepath.Join(root, "docs", "model.md")
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	i, j := strings.Index(s, docStart), strings.Index(s, docEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no block between %q and %q", doc, docStart, docEnd)
	}
	got, want := out.String(), s[i+len(docStart):j]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(doc, []byte(s[:i+len(docStart)]+got+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/model.md quotes otherwise than go run ./published prints (go test ./published -update rewrites it)")
}
