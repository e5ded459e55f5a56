package sweep

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestMain is also the child of TestRunnerMeasuresAnySystem: a point of
// testSpec in, measured, its point out.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		if err := ServeChild(context.Background(), os.Stdin, os.Stdout, measureTestSpec); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

const childEnv = "BREWPUT_SWEEP_TEST_CHILD"

// measureTestSpec measures a system of one operation that does nothing.
func measureTestSpec(ctx context.Context, s testSpec) (results.Point, error) {
	return MeasureTarget(ctx, Target{Mode: s.Config, Unit: "ops/s", Op: func() error { return nil }}, s.Load)
}

// testSpec is a point of a system the sweep does not know, as a user's
// would be: its configuration's name and its load.
type testSpec struct {
	Config string `json:"config"`
	Load
	Label string `json:"-"`
}

func (s testSpec) Entry() Entry                     { return Entry{Name: s.Config, Load: s.Load, Label: s.Label} }
func (s testSpec) Duration() time.Duration          { return s.Warmup + s.Dur }
func (s testSpec) Validate() error                  { return s.Load.Validate() }
func (s testSpec) WithProfile(base string) testSpec { s.Profile = base; return s }

// A study of any system's points reads back from its journal's plan, and
// a run cut short measures, in order, only what its points do not hold:
// each point holds one task, by its configuration, CPUs, load and round.
func TestBatchResumesAnySystem(t *testing.T) {
	load := func(cpus int) Load { return Load{CPUs: cpus, Load: results.Load{Par: 2, Dur: time.Second}} }
	st := Batch[testSpec]{Specs: []testSpec{{"a", load(1), ""}, {"b", load(1), ""}}, Count: 2}
	plan := st.Plan("run")
	back, err := BatchOf[testSpec](&plan, "run")
	if err != nil || !slices.Equal(back.Specs, st.Specs) || back.Count != 2 {
		t.Fatalf("BatchOf(its plan) = %+v, %v; want %+v", back, err, st)
	}
	point := func(config string, rep int) results.Point {
		return results.Point{Spec: results.Spec{Mode: config, CPUs: 1, Load: results.Load{Par: 2}}, Rep: rep}
	}
	other := point("a", 1)
	other.Par = 3 // another load: not this study's
	var left []string
	for _, task := range back.Remaining([]results.Point{point("b", 1), other, point("a", 2)}) {
		left = append(left, fmt.Sprintf("%s/%d", task.Spec.Config, task.Rep))
	}
	if want := []string{"a/1", "b/2"}; !slices.Equal(left, want) {
		t.Errorf("left to measure %v, want %v", left, want)
	}
}

// A Runner measures a system the sweep does not know in child processes,
// each point handed on as it is measured; a run cut short after its first
// point keeps it, and resuming measures only the rest.
func TestRunnerMeasuresAnySystem(t *testing.T) {
	load := Load{CPUs: 1, Load: results.Load{Par: 1, Dur: 30 * time.Millisecond}}
	st := &Batch[testSpec]{Specs: []testSpec{{"a", load, ""}, {"b", load, ""}}, Count: 1}
	r := Runner[testSpec]{Path: os.Args[0], Env: []string{childEnv + "=1"}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var kept []results.Point
	points, err := r.MeasureRest(ctx, st, nil, io.Discard, text.SweepWords{}, func(p *results.Point) error {
		kept = append(kept, *p)
		cancel() // as a ^C after the first point
		return nil
	})
	if err == nil || len(points) != 1 || len(kept) != 1 || points[0].Mode != "a" || points[0].Ops == 0 || points[0].CPUs != 1 {
		t.Fatalf("cut short after one point: %v, %d points (%d kept); want an error and point a measured, kept", err, len(points), len(kept))
	}
	rest, err := r.MeasureRest(context.Background(), st, points, io.Discard, text.SweepWords{}, func(*results.Point) error { return nil })
	if err != nil || len(rest) != 1 || rest[0].Mode != "b" || rest[0].Ops == 0 {
		t.Errorf("resumed: %v, %d points; want point b alone", err, len(rest))
	}
}
