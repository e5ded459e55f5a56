package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
	t.Errorf("docs/model.md quotes otherwise than go run ./reallibs prints (go test ./reallibs -update rewrites it)")
}
