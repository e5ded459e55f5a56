package shopsweep

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// A study's plan reads back as the same study for the same command, and
// BatchOf refuses another command's plan, a plan with no study, and one
// with more CPUs than this machine has.
func TestStudyOf(t *testing.T) {
	s := Spec{Mode: coffee.MustParseMode("finelocking"), Load: sweep.Load{CPUs: 1, Load: results.Load{Par: 4, Dur: time.Second}}, Steps: coffee.DefaultSteps()}
	st := Batch{Specs: []Spec{s}, Count: 2}
	plan := st.Plan("run")
	if plan.Points != 2 {
		t.Errorf("plan of %d points, want 2", plan.Points)
	}
	got, err := BatchOf(&plan, "run")
	if err != nil || got.Count != 2 || len(got.Specs) != 1 || got.Specs[0].Mode != s.Mode || got.Specs[0].Par != 4 {
		t.Fatalf("BatchOf(its plan) = %+v, %v; want %+v", got, err, st)
	}
	many := s
	many.CPUs = 1 << 20
	for _, c := range []struct {
		plan results.Plan
		want string
	}{
		{st.Plan("brewput"), "a journal of brewput brewput"},
		{results.Plan{Command: "run"}, "no study"},
		{Batch{Specs: []Spec{many}, Count: 1}.Plan("run"), "this machine has"},
	} {
		if _, err := BatchOf(&c.plan, "run"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("BatchOf(%s) = %v; want an error saying %q", c.plan.Study, err, c.want)
		}
	}
}
