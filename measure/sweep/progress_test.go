package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestProgressRevises: measuring's first line says its estimate will be
// revised, and each point's line (not a terminal) gives the time left by
// the rate so far, none after the last.
func TestProgressRevises(t *testing.T) {
	st := Batch{Specs: []Spec{{Load: Load{CPUs: 1, Load: results.Load{Dur: time.Second}}}, {Load: Load{CPUs: 2, Load: results.Load{Dur: time.Second}}}}, Count: 1}
	points := []results.Point{{Spec: results.Spec{Mode: "locking", CPUs: 1}, Throughput: 250, Unit: "lattes/s"}, {Spec: results.Spec{Mode: "locking", CPUs: 2}, Throughput: 250, Unit: "lattes/s"}}
	var log strings.Builder
	p := NewProgress(&log, st, 0)
	p.Done(points[:1])
	p.Done(points)
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "(revised as points finish)") || !strings.Contains(lines[1], " left") || strings.Contains(lines[2], " left") {
		t.Errorf("progress:\n%s\nwant the estimate, then the time left after the first point and none after the last", log.String())
	}
}
