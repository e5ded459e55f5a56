package sweep

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

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
