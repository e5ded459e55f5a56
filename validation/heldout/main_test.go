package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/validation/internal/docblock"
	"github.com/brewput/brewput/validation/internal/infer"
	"github.com/brewput/brewput/validation/internal/talk"
)

// talkTables writes a small pair of the talk's tables into a folder:
// three modes on 1–3 CPUs, two runs each, and each on 6 CPUs under 10
// workers.
func talkTables(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	const header = "run,mode,par,maxprocs,maxq,dur,interval,ops,drops,thru,dthr,wall,exec,util,upar,min,p05,p25,p50,p75,p90,p95,p99,max\n"
	row := func(b *strings.Builder, run int, mode string, par, cpus int) {
		fmt.Fprintf(b, "%d,%s,%d,%d,0,1s,0s,250,0,%d,0,1.0s,1.0s,%d%%,100%%,3.9,3.9,3.9,%.3f,4.0,4.0,4.0,4.1,4.6\n",
			run, mode, par, cpus, 250*cpus+run, 100*cpus, 3.98+0.01*float64(run))
	}
	modes := []string{"ideal", "locking", "finelocking"}
	var vary, over strings.Builder
	vary.WriteString(header)
	over.WriteString(header)
	for run := 1; run <= 2; run++ {
		for _, m := range modes {
			for cpus := 1; cpus <= 3; cpus++ {
				row(&vary, run, m, cpus, cpus)
			}
			row(&over, run, m, 10, 6)
		}
	}
	for name, b := range map[string]*strings.Builder{"varycpu.csv": &vary, "overload.csv": &over} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFoldsHoldOut checks that no fold infers from a point it predicts:
// a mode's fold infers from the other modes' 1–2 CPU points only and
// predicts that mode's points on other CPU counts, each point by one fold;
// and that checkFolds catches a fold that breaks the rule.
func TestFoldsHoldOut(t *testing.T) {
	dir := talkTables(t)
	pts, err := talk.ReadPoints(dir, talk.Median)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := infer.Read(filepath.Join(dir, "varycpu.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Points) != 9 || len(ps.Refused) > 0 {
		t.Fatalf("read %d points (refused %v), want 9", len(ps.Points), ps.Refused)
	}
	ps.Select(inferCPUs)

	fs := folds(ps, pts, "modes")
	if len(fs) != 3 {
		t.Fatalf("%d folds, want one a mode (3)", len(fs))
	}
	for _, f := range fs {
		if len(f.from.Points) != 4 {
			t.Errorf("fold %s infers from %d points, want the other two modes' on 1 and 2 CPUs (4)", f.name, len(f.from.Points))
		}
		for _, p := range f.from.Points {
			if modeOf(p) == f.name || !slices.Contains(inferCPUs, p.CPUs()) {
				t.Errorf("fold %s infers from %s", f.name, p.Name)
			}
		}
		if len(f.points) != 2 {
			t.Errorf("fold %s predicts %d points, want its mode's on 3 CPUs and overload (2)", f.name, len(f.points))
		}
		for _, p := range f.points {
			if p.Mode != f.name || p.CPUs <= 2 {
				t.Errorf("fold %s predicts %s on %d CPUs", f.name, p.Mode, p.CPUs)
			}
		}
	}
	if err := checkFolds(fs, pts); err != nil {
		t.Errorf("checkFolds: %v", err)
	}
	if len(ps.Points) != 6 {
		t.Errorf("folds changed the points they were given: %d left, want 6", len(ps.Points))
	}

	// A fold that saw its own mode, or a point predicted twice, is caught.
	leak := slices.Clone(fs)
	leak[0].from.Points = append(slices.Clone(leak[0].from.Points), ps.Points[0])
	if modeOf(ps.Points[0]) != leak[0].name {
		t.Fatalf("the first point is %s, not of the first fold's mode %s", ps.Points[0].Name, leak[0].name)
	}
	if err := checkFolds(leak, pts); err == nil {
		t.Errorf("checkFolds passed a fold that infers from its own mode")
	}
	twice := append(slices.Clone(fs), fs[0])
	if err := checkFolds(twice, pts); err == nil {
		t.Errorf("checkFolds passed points predicted by two folds")
	}

	cpus := folds(ps, pts, "cpus")
	if len(cpus) != 1 || len(cpus[0].from.Points) != 6 || len(cpus[0].points) != 6 {
		t.Errorf("by cpus: %d folds, want 1 inferring from 6 points and predicting 6", len(cpus))
	}
	if err := checkFolds(cpus, pts); err != nil {
		t.Errorf("checkFolds by cpus: %v", err)
	}
}

// TestKeepModes: -infer and -judge keep the inference points and the
// judged points of the modes named, the judged keeping the steps ideal's
// runs gave them, and refuse a mode the tables do not have.
func TestKeepModes(t *testing.T) {
	dir := talkTables(t)
	pts, err := talk.ReadPoints(dir, talk.Median)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := infer.Read(filepath.Join(dir, "varycpu.csv"))
	if err != nil {
		t.Fatal(err)
	}
	ps.Select(inferCPUs)
	kept, from, err := keepModes(pts, ps, "ideal,locking", "finelocking")
	if err != nil {
		t.Fatal(err)
	}
	if len(from.Points) != 4 || len(ps.Points) != 6 {
		t.Errorf("-infer kept %d points of %d, want ideal's and locking's on 1 and 2 CPUs (4 of 6, the 6 untouched)", len(from.Points), len(ps.Points))
	}
	for _, p := range from.Points {
		if m := modeOf(p); m != "ideal" && m != "locking" {
			t.Errorf("-infer ideal,locking kept %s", p.Name)
		}
	}
	if len(kept) != 4 {
		t.Errorf("-judge kept %d points, want finelocking's on 1–3 CPUs and overload (4)", len(kept))
	}
	for _, p := range kept {
		if p.Mode != "finelocking" || p.Steps[0].Grind == time.Millisecond {
			t.Errorf("-judge finelocking kept %s on %d CPUs with steps %v (want ideal's, not 1 ms)", p.Mode, p.CPUs, p.Steps)
		}
	}
	fs := folds(from, kept, "cpus")
	if err := checkFolds(fs, kept); err != nil || len(fs[0].points) != 2 {
		t.Errorf("by cpus on the modes kept: %v, %d points predicted, want 2", err, len(fs[0].points))
	}
	if all, _, err := keepModes(pts, ps, "", ""); err != nil || len(all) != len(pts) {
		t.Errorf("no -infer nor -judge kept %d of %d points (%v)", len(all), len(pts), err)
	}
	for _, bad := range [][2]string{{"ideal,espresso", ""}, {"", "mocha"}, {"", "ideal,"}} {
		if _, _, err := keepModes(pts, ps, bad[0], bad[1]); err == nil {
			t.Errorf("keepModes(-infer %q, -judge %q) took it", bad[0], bad[1])
		}
	}
}

var update = flag.Bool("update", false, "rewrite docs/model.md's quote of the kept output's verdict")

// The block of docs/model.md that quotes the verdict of the output kept in
// testdata/heldout-modes.txt, which go run ./heldout -ref testdata/talk
// -by modes printed (about 19 minutes: kept, not run by the test).
const (
	docStart = "<!-- go run ./heldout: begin -->\n```\n"
	docEnd   = "```\n<!-- go run ./heldout: end -->"
	verdict  = "done when (issue 44)"
	kept     = "heldout-modes.txt"
)

// TestDoc: docs/model.md quotes the verdict of the output kept (go test
// ./heldout -update rewrites the quote from it; the command rewrites it).
func TestDoc(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(root, "validation", "testdata", kept))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(out), verdict)
	if i < 0 {
		t.Fatalf("testdata/%s: no %q", kept, verdict)
	}
	docblock.Check(t, filepath.Join(root, "docs", "model.md"), docStart, docEnd, string(out[i:]), *update,
		"go test ./heldout -update, after go run ./heldout -ref testdata/talk -by modes >testdata/"+kept)
}

// TestParseFixed: -fix reads NAME=DURATION pairs of the costs inferred,
// and refuses any other name, a bad or negative duration, a missing value.
func TestParseFixed(t *testing.T) {
	got, err := parseFixed("switch=200ns,runnext-grace=53us")
	if want := map[string]time.Duration{"switch": 200 * time.Nanosecond, "runnext-grace": 53 * time.Microsecond}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("parseFixed: %v, %v; want %v", got, err, want)
	}
	if got, err := parseFixed(""); got != nil || err != nil {
		t.Errorf("parseFixed(\"\"): %v, %v; want nothing held", got, err)
	}
	for _, bad := range []string{"swtch=1us", "switch=abc", "switch", "switch=-1us", "mutex-spin=1us", "switch=1us,"} {
		if _, err := parseFixed(bad); err == nil {
			t.Errorf("parseFixed(%q) took it", bad)
		}
	}
}

// TestSteady: with -steady the inference's runs have steady steps, as the
// predictions' (talk.Median) have; infer.Read gives them ideal's spread.
func TestSteady(t *testing.T) {
	ps, err := infer.Read(filepath.Join(talkTables(t), "varycpu.csv"))
	if err != nil {
		t.Fatal(err)
	}
	varied := 0
	for _, p := range ps.Points {
		for _, r := range p.Runs {
			if r.Config.Steps.Jitter > 0 {
				varied++
			}
		}
	}
	steady(ps)
	for _, p := range ps.Points {
		for _, r := range p.Runs {
			if r.Config.Steps.Jitter != 0 {
				t.Errorf("%s: steps %v after steady, want no jitter", p.Name, r.Config.Steps)
			}
		}
	}
	if varied != ps.Runs() {
		t.Errorf("infer.Read varied the steps of %d of %d runs, want all (each has its ideal, quartiles 0.1 ms apart)", varied, ps.Runs())
	}
}
