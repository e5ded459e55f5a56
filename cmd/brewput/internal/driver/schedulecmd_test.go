package driver

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// TestOneDefaultPolicy: every command that simulates takes the same
// policy when --sched is left out.
func TestOneDefaultPolicy(t *testing.T) {
	root := newRoot(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	for _, name := range []string{"model", "advise", "why", "schedule"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		f := cmd.Flags().Lookup("sched")
		if f == nil {
			t.Errorf("brewput %s has no --sched", name)
			continue
		}
		if f.DefValue != model.DefaultSched {
			t.Errorf("brewput %s --sched defaults to %s; the model's default policy is %s", name, f.DefValue, model.DefaultSched)
		}
	}
}

// TestScheduleAgreesWithModel: brewput schedule, its policy left out,
// draws under the policy brewput model predicts with, and the share of
// the time its text says the CPUs ran steps is the utilization the model
// gives the same configuration: every CPU busy for multi-2 on 6 CPUs, two
// of six idle for finelocking, whose grinder allows one latte at a time.
func TestScheduleAgreesWithModel(t *testing.T) {
	if race.Enabled {
		// Two surfaces' figures compared: their simulations run under
		// the detector in TestScheduleJSON and TestModelCalibrationFile.
		t.Skip("the schedule's agreement with the model checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	config := emptyConfig(t)
	file := fixedCalibration(t)
	ran := regexp.MustCompile(`The CPUs ran steps (\d+) %`)
	for _, mode := range []string{"multi-2", "finelocking"} {
		stdout, _ := succeeds(t, noChild(), "schedule", "--mode", mode, "--cpus", "6", "--calibration", file, "--out", t.TempDir())
		if want := mode + " on 6 CPUs, model (" + model.DefaultSched + ")"; !strings.HasPrefix(stdout, want) {
			t.Errorf("brewput schedule --mode %s --cpus 6 draws %q; want %q", mode, strings.SplitN(stdout, ":", 2)[0], want)
		}
		m := ran.FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("brewput schedule --mode %s: no share of steps in\n%s", mode, stdout)
		}
		points := modelPoints(t, "--modes", mode, "--cpus", "6", "--calibration", file, "--band=false")
		if len(points) != 1 {
			t.Fatalf("%d points", len(points))
		}
		if want := fmt.Sprintf("%.0f", 100*points[0].Metrics[results.Util]); m[1] != want {
			t.Errorf("%s on 6 CPUs: the schedule says the CPUs ran steps %s %% of the time, the model %s %%:\n%s", mode, m[1], want, stdout)
		}
	}
	assertEmptyDir(t, config, "--calibration was given")
}

// TestScheduleJSON: --format json carries the same timeline as the text,
// its summary the text's sentence and its bars every step, and writes no
// picture unless --out is given.
func TestScheduleJSON(t *testing.T) {
	emptyConfig(t)
	dir := t.TempDir()
	t.Chdir(dir)
	text, _ := succeeds(t, noChild(), "schedule", "--mode", "finelocking", "--cpus", "4", "--sched", "fifo", "--out", t.TempDir())
	out, _ := succeeds(t, noChild(), "schedule", "--mode", "finelocking", "--cpus", "4", "--sched", "fifo", "--format", "json")
	var ts []struct {
		Title, Summary string
		CPUs           int
		SpanMS         float64 `json:"span_ms"`
		Bars           []struct {
			CPU  int
			Kind string
			Who  int
		}
	}
	if err := json.Unmarshal([]byte(out), &ts); err != nil || len(ts) != 1 {
		t.Fatalf("brewput schedule --format json: %v, %d timelines\n%s", err, len(ts), out)
	}
	tl := ts[0]
	if !strings.HasPrefix(text, tl.Title) || !strings.Contains(oneLine(text), tl.Summary) {
		t.Errorf("the JSON's title %q and summary %q are not the text's:\n%s", tl.Title, tl.Summary, text)
	}
	if tl.CPUs != 4 || tl.SpanMS != 20 || len(tl.Bars) == 0 {
		t.Errorf("the JSON has %d CPUs, a span of %v ms and %d bars; want 4, 20 and some", tl.CPUs, tl.SpanMS, len(tl.Bars))
	}
	for _, b := range tl.Bars {
		if b.CPU < 0 || b.CPU >= 4 || b.Who < 1 || b.Kind == "" {
			t.Errorf("a bar on CPU %d of customer %d, kind %q: under fifo every bar is a customer's step on one of the 4 CPUs", b.CPU, b.Who, b.Kind)
			break
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("--format json without --out wrote %d files into the working folder", len(entries))
	}
}
