package calibrate

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// quietAt is a quiet calibration of the machine "vm" measured at hour h
// with a wake-up of wake µs, its interval ±1 µs.
func quietAt(h int, wake time.Duration) Calibration {
	c := Calibration{Samples: 100, Repeats: 6, Date: time.Date(2026, 11, 24, h, 0, 0, 0, time.UTC),
		Host: results.Host{Name: "vm", CPUModel: "EPYC", GoVersion: "go1.26"}}
	c.Costs.Wake, c.Lo.Wake, c.Hi.Wake = wake*time.Microsecond, (wake-1)*time.Microsecond, (wake+1)*time.Microsecond
	c.Costs.Switch, c.Lo.Switch, c.Hi.Switch = 80, 75, 85
	return c
}

// TestAfter: a quiet calibration of the same machine carries the one
// before it and those that one carries, newest first, KeepEarlier at most;
// its band spans them all (Span, Range, Ref) and says so; one of another
// machine, or after a busy, forced or inferred one, carries none; a busy
// one carries the quiet ones before it.
func TestAfter(t *testing.T) {
	c := quietAt(0, 46)
	for h := 1; h <= KeepEarlier+2; h++ {
		c = quietAt(h, 20).After(c)
	}
	if len(c.Earlier) != KeepEarlier {
		t.Fatalf("%d earlier calibrations, want %d", len(c.Earlier), KeepEarlier)
	}
	if got, want := c.Earlier[0].Date.Hour(), KeepEarlier+1; got != want {
		t.Errorf("newest earlier at %d h, want %d h", got, want)
	}
	if got := c.Since().Hour(); got != 2 {
		t.Errorf("since %d h, want 2 h: the oldest kept (hours 0 and 1 dropped)", got)
	}
	// Hour 0's 46 µs fell out: the span is 19–21 µs again.
	if lo, hi := c.Span(); lo.Wake != 19*time.Microsecond || hi.Wake != 21*time.Microsecond {
		t.Errorf("span %v–%v, want 19µs–21µs", lo.Wake, hi.Wake)
	}

	c = quietAt(2, 20).After(quietAt(1, 46))
	lo, hi := c.Span()
	if lo.Wake != 19*time.Microsecond || hi.Wake != 47*time.Microsecond || lo.Switch != 75 || hi.Switch != 85 {
		t.Errorf("span wake %v–%v switch %v–%v, want 19µs–47µs and 75ns–85ns", lo.Wake, hi.Wake, lo.Switch, hi.Switch)
	}
	if r := c.Range(); r == nil || r.Lo.Wake != lo.Wake || r.Hi.Wake != hi.Wake {
		t.Errorf("range %+v, want the span", r)
	}
	ref := c.Ref()
	if k, _ := ref.Cost("wake"); k.Median != 20*time.Microsecond || k.Lo != lo.Wake || k.Hi != hi.Wake {
		t.Errorf("ref's wake %+v, want 20µs over the span", k)
	}
	if ref.Calibrations != 2 || !strings.Contains(text.CalibrationLine(ref), "its band spans the costs' 95 % intervals over 2 calibrations of this machine since 2026-11-24 01:00 UTC") {
		t.Errorf("ref says %q (%d calibrations)", text.CalibrationLine(ref), ref.Calibrations)
	}
	var table bytes.Buffer
	text.WriteCalibrationTable(&table, c.Table())
	if !strings.Contains(table.String(), "20µs – 46µs") || !strings.Contains(table.String(), "19µs – 47µs") {
		t.Errorf("table does not show the medians 20µs – 46µs and the span 19µs – 47µs:\n%s", table.String())
	}

	other := quietAt(1, 46)
	other.Host.GoVersion = "go1.25"
	busy := quietAt(1, 46)
	busy.Others = 0.5
	forced := busy
	forced.Forced = true
	for name, prev := range map[string]Calibration{"another Go": other, "busy": busy, "forced": forced} {
		if got := quietAt(2, 20).After(prev); len(got.Earlier) != 0 {
			t.Errorf("after a %s calibration: carries %d", name, len(got.Earlier))
		}
		// A busy or forced one carries the quiet one before it, for a
		// prediction to use in its place (Hedged).
		want := map[string]int{"another Go": 0, "busy": 1, "forced": 1}[name]
		if got := prev.After(quietAt(0, 20)); len(got.Earlier) != want {
			t.Errorf("a %s calibration carries %d earlier, want %d", name, len(got.Earlier), want)
		}
	}

	// Saved and loaded, it still carries them; a cost given as a flag is
	// given in all of them.
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Earlier) != 1 || got.Earlier[0].Costs.Wake != 46*time.Microsecond {
		t.Fatalf("loaded %+v", got.Earlier)
	}
	got.Override("wake", 5*time.Microsecond)
	if lo, hi := got.Span(); lo.Wake != 5*time.Microsecond || hi.Wake != 5*time.Microsecond {
		t.Errorf("wake given as 5µs: span %v–%v", lo.Wake, hi.Wake)
	}
	given := c
	given.Override("wake", 5*time.Microsecond)
	if c.Earlier[0].Costs.Wake != 46*time.Microsecond {
		t.Errorf("Override changed the earlier calibrations of the one it was copied from")
	}
}
