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
