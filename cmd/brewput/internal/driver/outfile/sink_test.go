package outfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// JSON on stdout streams each point as it comes and Finish writes only
// what did not go out yet, profiled; with a file, Finish says where the
// points went and, for a run cut short, how to resume it.
func TestSink(t *testing.T) {
	var stdout, stderr bytes.Buffer
	profiled := 0
	profile := func(ps []results.Point) error { profiled += len(ps); return errors.New("no model") }
	s := &Sink{Stdout: &stdout, Stderr: &stderr, Format: results.JSON, Annotate: profile, AnnotateEach: true}
	ps := []results.Point{point("noop"), point("ideal")}
	if err := s.Add(&ps[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ps, true); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stdout.String(), "\n"); n != 3 || profiled != 3 || !strings.HasPrefix(stdout.String(), fmt.Sprintf(`{"brewput":"results","schema":%d}`, results.Schema)) {
		t.Errorf("%d lines on stdout, %d points profiled; want 3 (the schema's, one point as it came, the other at the end) and 3 (one as it came, both at the end)", n, profiled)
	}
	if !strings.Contains(stderr.String(), "causal profile of noop cpus=1: no model") || !strings.Contains(stderr.String(), "causal profiles: no model") {
		t.Errorf("stderr does not tell the failed profiles:\n%s", &stderr)
	}
	stdout.Reset()
	stderr.Reset()
	path := filepath.Join(t.TempDir(), "r.json")
	o, err := Create(path, results.JSON, results.Plan{Command: "run", Points: 3})
	if err != nil {
		t.Fatal(err)
	}
	s = &Sink{Stdout: &stdout, Stderr: &stderr, Format: results.JSON, Out: o, Resume: "brewput run"}
	for i := range ps {
		if err := s.Add(&ps[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Finish(ps, false); err != nil {
		t.Fatal(err)
	}
	if want := "wrote 2 points to " + path; !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "brewput run --resume "+path) {
		t.Errorf("stderr:\n%s\nwant %q and how to resume", &stderr, want)
	}
	if !strings.Contains(stdout.String(), "noop") {
		t.Errorf("no table on stdout:\n%s", &stdout)
	}
}

// View writes what stdout gets in place of the full table, with a file
// and without; other formats on stdout are not a table, and View does not
// touch them.
func TestSinkView(t *testing.T) {
	ps := []results.Point{point("noop"), point("ideal")}
	view := func(w io.Writer, points []results.Point) error {
		_, err := fmt.Fprintf(w, "answer of %d points\n", len(points))
		return err
	}
	var stdout, stderr bytes.Buffer
	s := &Sink{Stdout: &stdout, Stderr: &stderr, Format: results.Table, View: view}
	if err := s.Finish(ps, true); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); got != "answer of 2 points\n" {
		t.Errorf("stdout without a file: %q, want the view", got)
	}
	stdout.Reset()
	o, err := Create(filepath.Join(t.TempDir(), "r.csv"), results.CSV, results.Plan{Command: "lab", Points: 2})
	if err != nil {
		t.Fatal(err)
	}
	s = &Sink{Stdout: &stdout, Stderr: &stderr, Format: results.CSV, Out: o, View: view}
	if err := s.Finish(ps, true); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); got != "answer of 2 points\n" {
		t.Errorf("stdout with a file: %q, want the view", got)
	}
	stdout.Reset()
	s = &Sink{Stdout: &stdout, Stderr: &stderr, Format: results.CSV, View: view}
	if err := s.Finish(ps, true); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout.String(), "answer") || !strings.Contains(stdout.String(), "noop") {
		t.Errorf("CSV on stdout:\n%s", &stdout)
	}
}
