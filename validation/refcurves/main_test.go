package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestReference: model/curves/reference.json is what the lendings' kept
// primitives give (go run ./refcurves writes it again).
func TestReference(t *testing.T) {
	c, err := build("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "model", "curves", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want)+"\n" {
		t.Error("model/curves/reference.json is not what the lendings' primitives give; go run ./refcurves writes it")
	}
}
