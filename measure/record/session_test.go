package record_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/measure/record"
)

// TestStartRefusesASecondSession: the runtime has one CPU profile and one
// trace; a second session fails, saying so, and leaves no files.
func TestStartRefusesASecondSession(t *testing.T) {
	dir := t.TempDir()
	s, err := record.Start(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := record.Start(filepath.Join(dir, "b"))
	if err == nil {
		second.Abort()
		t.Fatal("a second session started beside the first")
	}
	if !strings.Contains(err.Error(), "only one can run") {
		t.Errorf("error %q does not say why", err)
	}
	if _, err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stop(); err == nil {
		t.Error("a second Stop succeeded")
	}
	for _, e := range testkit.DirNames(t, dir) {
		if strings.HasPrefix(e, "b") || strings.HasPrefix(e, ".") {
			t.Errorf("the refused session left %s", e)
		}
	}
}

// TestAbortLeavesNothing: an aborted session writes no file and a new
// one can start after it.
func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := record.Start(filepath.Join(dir, "x"))
	if err != nil {
		t.Fatal(err)
	}
	s.Abort()
	s.Abort()
	if names := testkit.DirNames(t, dir); len(names) != 0 {
		t.Errorf("Abort left %v", names)
	}
	if _, err := s.Stop(); err == nil {
		t.Error("Stop after Abort succeeded")
	}
	again, err := record.Start(filepath.Join(dir, "y"))
	if err != nil {
		t.Fatalf("no session could start after an aborted one: %v", err)
	}
	again.Abort()
}

func TestStartChecksTheBase(t *testing.T) {
	dir := t.TempDir()
	bases := testkit.BadProfileBases(t, dir)
	bases[""] = "want a path that names the files"
	for base, want := range bases {
		s, err := record.Start(base)
		if err == nil {
			s.Abort()
			t.Errorf("Start(%q) succeeded", base)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start(%q): %v; want it to say %q", base, err, want)
		}
	}
	if names := testkit.DirNames(t, dir); len(names) != 1 {
		t.Errorf("refused sessions left files: %v", names)
	}
}
