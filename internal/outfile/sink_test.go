package outfile

import (
	"bytes"
	"errors"
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
	s := &Sink{Stdout: &stdout, Stderr: &stderr, Format: results.JSON, Profile: profile, ProfileEach: true}
	ps := []results.Point{point("noop"), point("ideal")}
	if err := s.Add(&ps[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ps, true); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stdout.String(), "\n"); n != 2 || profiled != 3 {
		t.Errorf("%d lines on stdout, %d points profiled; want 2 and 3 (one as it came, both at the end)", n, profiled)
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
