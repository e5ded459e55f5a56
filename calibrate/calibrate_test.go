package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestMeasure checks what holds on any machine, loaded or not: every cost
// is positive (each microbenchmark does real work) and well under the
// millisecond steps the model simulates. The figures themselves vary by
// machine and load and are logged.
func TestMeasure(t *testing.T) {
	c, err := Measure(context.Background(), 30)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", c.Costs)
	costs := map[string]time.Duration{
		"switch": c.Costs.Switch, "mutex handoff": c.Costs.MutexHandoff,
		"chan handoff": c.Costs.ChanHandoff, "buffered chan handoff": c.Costs.BufChanHandoff,
	}
	for name, d := range costs {
		if d <= 0 || d > 500*time.Microsecond {
			t.Errorf("%s: %v, want between 0 and 500µs", name, d)
		}
	}
	// The wake-up needs a free core for the woken thread: on a busy
	// machine it can take as long as the readier keeps its P.
	if c.Note == "" && (c.Costs.Wake <= 0 || c.Costs.Wake > wakeBurn+time.Millisecond) {
		t.Errorf("wake: %v, want between 0 and %v", c.Costs.Wake, wakeBurn+time.Millisecond)
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "calibration.json")
	want := Calibration{Samples: 7}
	want.Costs.Wake = 12 * time.Microsecond
	want.Host.Name = "here"
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("loaded %+v, want %+v", got, want)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files beside the calibration, want none (temporary files removed)", len(entries)-1)
	}
}

func TestLoadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"garbage":  "not json",
		"empty":    "{}",
		"negative": `{"samples": 3, "costs": {"wake_ns": -5}}`,
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
	}
	if _, err := Measure(context.Background(), 2); err == nil {
		t.Error("Measure with 2 samples: no error")
	}
}
