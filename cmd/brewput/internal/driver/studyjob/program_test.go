package studyjob

import (
	"bytes"
	"context"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// exampleStudy is the cache example's program, as brewput study is given it.
const exampleStudy = "github.com/brewput/brewput/examples/cache/study"

// The tests' points are kept as first measured (the zero sweep.Retry),
// disturbed or not: they check the wiring, not the numbers.

// The protocol round-trips through a built program: Build has it describe
// its study, Measure has it measure a point in a pinned child, Why a
// point with each part stretched; the temporary folder goes with remove.
func TestProgram(t *testing.T) {
	p, remove, err := Build(context.Background(), exampleStudy)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		remove()
		if _, err := os.Stat(p.Path); !os.IsNotExist(err) {
			t.Errorf("the built program is left: %v", err)
		}
	}()
	if p.Name != "cache" || p.Unit != "ops/s" || len(p.Variants) != 6 {
		t.Fatalf("description %+v", p.Description)
	}
	if _, err := p.ParseVariants("variants", "mutex-write,nope"); err == nil || !strings.HasPrefix(err.Error(), `--variants: "nope": not a variant; accepted: mutex-read, mutex-write`) {
		t.Errorf("ParseVariants: %v", err)
	}
	load := sweep.Load{Load: results.Load{Par: 2, Dur: 20 * time.Millisecond}}
	var log bytes.Buffer
	added := 0
	points, err := p.Measure(context.Background(), Plan{Variants: []string{"sharded-write"}, CPUs: []int{1}, Load: load, Count: 2}, &log,
		func(*results.Point) error { added++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 2 || added != 2 || points[1].Rep != 2 || points[0].StudyName() != "cache" || points[0].CPUs != 1 || len(points[0].Machines()) != 16 || points[0].CPUSet == "" {
		t.Errorf("points %+v, %d added", points, added)
	}
	if !strings.Contains(log.String(), "[2/2] sharded-write cpus=1 rep 2: ") {
		t.Errorf("progress:\n%s", log.String())
	}
	load.CPUs = 1
	s, err := p.Why(context.Background(), Why{Variant: "mutex-write", Load: load, Experiment: Experiment{Frac: 0.1, Count: 1, MaxCount: 1}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range s.Experiments {
		names = append(names, e.Name)
		if len(e.Points) != 1 {
			t.Errorf("%s: %d points, want 1", e.Name, len(e.Points))
		}
	}
	if len(s.Base) != 1 || !slices.Contains(names, "the cache mutex") {
		t.Errorf("why: %d runs as it is, experiments %v", len(s.Base), names)
	}
}

// A package that does not build, or is no study program, is a one-line
// error naming it, and leaves no folder.
func TestBuildRefuses(t *testing.T) {
	for pkg, want := range map[string]string{
		"./nonexistent":                      "study ./nonexistent: does not build: ",
		"github.com/brewput/brewput/results": "study github.com/brewput/brewput/results: not a study program",
	} {
		if _, _, err := Build(context.Background(), pkg); err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Build(%s) = %v, want one line %q…", pkg, err, want)
		}
	}
}

// TestPredictMeasuresUndecidedAgain: a variant whose runs on 2 CPUs read
// as two kinds is measured again (on 1 and 2 CPUs), and the more runs
// decide it; one whose runs agree is not measured again.
func TestPredictMeasuresUndecidedAgain(t *testing.T) {
	ref := curves.Reference()
	_, _, alone := curves.Shortfall(curves.Bench{Measured: map[int]curves.Range{2: {}}}, ref)
	edge := alone * 0.85 // an unexplained loss below, nothing shared above
	rep := 0
	run := func(v string, cpus int, speedup float64) results.Point {
		rep++
		thr := 1e6 * speedup
		return results.Point{Kind: results.KindStudy, Source: results.SourceMeasured, Rep: rep,
			Spec: results.Spec{Mode: v, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}},
			Ops:  int64(thr), Throughput: thr, Unit: "ops/s", Study: &results.Study{Name: "s"}}
	}
	var measured []results.Point
	for _, s := range []float64{edge * 0.9, edge * 1.1, edge * 1.12} {
		measured = append(measured, run("Straddles", 1, 1), run("Straddles", 2, s), run("Clear", 1, 1), run("Clear", 2, edge*1.15))
	}
	var asked []map[string]int
	f := Predict{CPUs: []int{1, 2, 16}, Here: ref, Plan: Plan{Variants: []string{"Straddles", "Clear"}},
		More: func(_ context.Context, variants map[string]int) ([]results.Point, error) {
			asked = append(asked, variants)
			var more []results.Point
			for range 3 {
				more = append(more, run("Straddles", 1, 1), run("Straddles", 2, edge*1.11))
			}
			return more, nil
		}}
	var stderr bytes.Buffer
	predicted, _, _, err := PredictFrom(context.Background(), "s", f, measured, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || len(asked[0]) != 1 || asked[0]["Straddles"] != 2 {
		t.Errorf("measured again %v, want Straddles once, on 2 CPUs", asked)
	}
	if !strings.Contains(strings.Join(strings.Fields(stderr.String()), " "), "Straddles: its runs on 2 CPUs read as nothing shared and as unexplained loss; measuring it again") {
		t.Errorf("stderr %q, want it to say why it measures again", stderr.String())
	}
	if !slices.ContainsFunc(predicted, func(p results.Point) bool { return p.Mode == "Straddles" && p.CPUs == 16 }) {
		t.Errorf("Straddles not predicted on 16 CPUs once its runs decided: %+v", predicted)
	}
}
