package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/all"
	"github.com/brewput/brewput/results"
)

// TestNewLab: a lab written as tinylab_test.go is, and put in the list of
// labs, is listed, runs with its own flags, refuses bad ones, runs in the
// main job's --labs and gets its section and chart in the report, with no
// other change anywhere.
func TestNewLab(t *testing.T) {
	dir := t.TempDir()
	labs := func() []lab.Lab { return append(all.Labs(), newTinyLab()) } // lab/all's one line
	brew := func(args ...string) (int, string, string) {
		var out syncBuffer
		errOut := syncBuffer{columns: unwrapped}
		code := runEnv(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, child: selfChild(), labList: labs})
		return code, out.String(), errOut.String()
	}
	if code, stdout, _ := brew("lab", "list"); code != exitOK || !strings.Contains(stdout, "\ntiny       adds up integers\n") {
		t.Errorf("lab list: exit %d\n%s", code, stdout)
	}
	file := filepath.Join(dir, "tiny.json")
	code, _, stderr := brew("lab", "tiny", "--sizes", "10,100", "--cpus", "1", "--out", file)
	points, err := results.ReadFile(file)
	if code != exitOK || err != nil || len(points) != 2 || points[1].Metrics()["sum"] != 4950 || !strings.Contains(stderr, "tiny added up 100") {
		t.Fatalf("lab tiny: exit %d, %v, %d points; stderr:\n%s", code, err, len(points), stderr)
	}
	if code, _, stderr := brew("lab", "tiny", "--sizes", "0"); code != exitUsage || stderr != "brewput: --sizes [0]: want at least one positive size\n" {
		t.Errorf("lab tiny --sizes 0: exit %d, %q", code, stderr)
	}
	report := filepath.Join(dir, "report")
	if code, _, stderr := brew("--modes", "noop", "--cpus", "1", "--dur", "20ms", "--warmup", "0s", "--predict=false", "--labs", "tiny", "--out", report); code != exitOK {
		t.Fatalf("main job with --labs tiny: exit %d\n%s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(report, "index.html"))
	if err != nil || !strings.Contains(string(page), `id="lab-tiny"`) || !strings.Contains(string(page), "How fast each size adds up.") {
		t.Errorf("the page has no section for the tiny lab with its lesson: %v", err)
	}
	if _, err := os.Stat(filepath.Join(report, "lab-tiny.svg")); err != nil {
		t.Errorf("no chart of the tiny lab: %v", err)
	}
}
