package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

// The logs lab runs from the command line, small, on 1 CPU, and leaves
// nothing in its --dir; its lessons are checked in package logs.
func TestLogsLabRun(t *testing.T) {
	dir := t.TempDir()
	ps := runLab(t, "logs", "--cpus", "1", "--kinds", "memory,file", "--writers", "1,4", "--appends", "400",
		"--value-bytes", "24", "--dir", dir, "--reps", "1")
	want := []string{"memory", "memory", "file", "file"}
	if len(ps) != len(want) {
		t.Fatalf("%d points, want %d", len(ps), len(want))
	}
	for i, p := range ps {
		m := p.Metrics
		if p.Variant != want[i] || p.Par != []int{1, 4}[i%2] || p.Ops != 400 || m["verified"] != 1 || m["value_bytes"] != 24 || m["sync"] != 0 {
			t.Errorf("point %d: %s, par %d, %d appends, metrics %v; want %s with the flags' values", i, p.Variant, p.Par, p.Ops, m, want[i])
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the lab left %d entries in --dir", len(left))
	}
	// --sync names the synced variants, and without --appends runs the
	// smaller sync default.
	ps = runLab(t, "logs", "--cpus", "1", "--kinds", "file", "--writers", "2", "--sync", "--reps", "1")
	if len(ps) != 1 || ps[0].Variant != "file-sync" || ps[0].Ops != 1000 || ps[0].Metrics["sync"] != 1 {
		t.Errorf("--sync: %d points, first %s of %d appends", len(ps), ps[0].Variant, ps[0].Ops)
	}
}

func TestLogsLabBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--kinds", "tape"}, `--kinds "tape"`},
		{[]string{"--kinds", "file,file"}, `--kinds "file"`},
		{[]string{"--writers", "0"}, "--writers 0"},
		{[]string{"--writers", "x"}, "--writers"},
		{[]string{"--appends", "0"}, "--appends 0"},
		{[]string{"--appends", "10"}, "--appends 10"},
		{[]string{"--value-bytes", "4"}, "--value-bytes 4"},
		{[]string{"--reps", "0"}, "--reps 0"},
		{[]string{"--dir", "/nonexistent/folder"}, "--dir /nonexistent/folder"},
		{[]string{"--sync=maybe"}, "--sync"},
	} {
		args := append([]string{"lab", "logs"}, c.args...)
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("brewput %q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}
