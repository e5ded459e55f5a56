package infer

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/validation/internal/talk"
)

// TestReadTalk: a table of the talk simulator's runs gives one point per
// mode, CPUs and workers, its runs together, each run's steps talk.Step
// of ideal in the same run where there is one; an open-loop row is refused
// with the reason.
func TestReadTalk(t *testing.T) {
	ps, err := Read("testdata/talk.csv")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps.Points {
		names = append(names, p.Name)
	}
	want := []string{"ideal on 1 CPU, 1 workers", "finelocking on 2 CPUs, 2 workers", "linearpipe-0 on 2 CPUs, 2 workers", "locking on 2 CPUs, 2 workers"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Fatalf("points %q, want %q", names, want)
	}
	if n := len(ps.Points[1].Runs); n != 2 {
		t.Errorf("finelocking on 2 CPUs: %d runs, want the table's 2", n)
	}
	if got, want := ps.Points[0].Runs[0].Config.Steps, talk.Step(3.984, 3.987, 3.990); got != want || got.Jitter == 0 {
		t.Errorf("ideal's steps %+v, want talk.Step of its quartiles, %+v, varying", got, want)
	}
	if got := ps.Points[1].Runs[0].Config.Steps; got != coffee.DefaultSteps() {
		t.Errorf("finelocking's steps %+v, want 1 ms, no jitter (no ideal in its run on 2 CPUs)", got)
	}
	// ideal on 1 CPU used 97 % of it: the others took 0.03 CPUs.
	if got := ps.Points[0].Runs[0].Others; math.Abs(got-0.03) > 1e-9 {
		t.Errorf("ideal's others %v CPUs, want 0.03 (its 1 CPU less its util, 97 %%)", got)
	}
	if got := ps.Points[1].Runs[0].Others; got != 0 {
		t.Errorf("finelocking's others %v CPUs, want 0 (no ideal in its run on 2 CPUs)", got)
	}
	if len(ps.Refused) != 1 || !strings.Contains(ps.Refused[0], "line 7") || !strings.Contains(ps.Refused[0], "open loop") {
		t.Errorf("refused %q, want line 7 as an open loop", ps.Refused)
	}
	if got := ps.CPUs(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("CPUs %v", got)
	}
	if left := ps.Select([]int{2}); left != 1 || len(ps.Points) != 3 {
		t.Errorf("Select 2 CPUs left out %d, kept %d points", left, len(ps.Points))
	}
}

// TestReadRefusesOtherFiles: a file that is neither a results file nor
// the talk's table is an error naming it.
func TestReadRefusesOtherFiles(t *testing.T) {
	if _, err := Read("read_test.go"); err == nil || !strings.Contains(err.Error(), "read_test.go") {
		t.Errorf("err %v", err)
	}
}

// TestInferStops: a cancelled search returns the context's error and
// no costs.
func TestInferStops(t *testing.T) {
	ps, err := Read("testdata/talk.csv")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cal, err := Infer(ctx, ps, Options{Base: base})
	if !errors.Is(err, context.Canceled) || cal.Inferred != nil {
		t.Errorf("cancelled: %v, inferred %v", err, cal.Inferred)
	}
}
