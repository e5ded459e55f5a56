package sweep

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestProgressRevises: measuring's first line says its estimate will be
// revised, and each point's line (not a terminal) gives the time left by
// the rate so far, none after the last.
func TestProgressRevises(t *testing.T) {
	st := Batch[testSpec]{Specs: []testSpec{{Load: Load{CPUs: 1, Load: results.Load{Dur: time.Second}}}, {Load: Load{CPUs: 2, Load: results.Load{Dur: time.Second}}}}, Count: 1}
	points := []results.Point{{Spec: results.Spec{Mode: "locking", CPUs: 1}, Throughput: 250, Unit: "lattes/s"}, {Spec: results.Spec{Mode: "locking", CPUs: 2}, Throughput: 250, Unit: "lattes/s"}}
	var log strings.Builder
	p := NewProgress(&log, text.SweepWords{}, st, 0)
	p.Done(points[:1])
	p.Done(points)
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "(revised as points finish)") || !strings.Contains(lines[1], " left") || strings.Contains(lines[2], " left") {
		t.Errorf("progress:\n%s\nwant the estimate, then the time left after the first point and none after the last", log.String())
	}
}

// TestProgressEstimatesRetries: where disturbed points are measured
// again, the first estimate says how long that could take at most: two
// points of 1 s, 4 attempts each after 5 s waits, up to 38 s.
func TestProgressEstimatesRetries(t *testing.T) {
	st := Batch[testSpec]{Specs: []testSpec{{Load: Load{CPUs: 1, Load: results.Load{Dur: time.Second}}}, {Load: Load{CPUs: 2, Load: results.Load{Dur: time.Second}}}},
		Count: 1, Retry: Retry{Attempts: 4, Wait: 5 * time.Second}}
	var log strings.Builder
	NewProgress(&log, text.SweepWords{}, st, 0)
	about := st.Specs[0].Duration() + st.Specs[1].Duration()
	want := fmt.Sprintf("about %v on a quiet machine, up to %v if other processes make every point be measured again",
		about.Round(100*time.Millisecond), (4*about + 2*3*5*time.Second).Round(time.Second))
	if got := oneLine(log.String()); !strings.Contains(got, want) {
		t.Errorf("first line %q, want %q", got, want)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestProgressSays: a retry message between points is wrapped to the
// width (80 where it is not a terminal), a value never split.
func TestProgressSays(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	st := Batch[testSpec]{Specs: []testSpec{{Load: Load{CPUs: 1, Load: results.Load{Dur: time.Second}}}}, Count: 1}
	var log strings.Builder
	p := NewBar(&log, text.SweepWords{}, st)
	p.Say("multipipe-2 cpus=2: disturbed (other processes took 1.28 CPUs of its 2 CPUs): measuring again after waiting 5.1s for a quiet machine (still busy), attempt 2 of 4")
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	for _, l := range lines {
		if len([]rune(l)) > 80 {
			t.Errorf("a line of %d columns: %q", len([]rune(l)), l)
		}
	}
	if len(lines) < 2 || !strings.Contains(log.String(), "1.28 CPUs") || !strings.Contains(log.String(), "2 CPUs)") {
		t.Errorf("said:\n%s", log.String())
	}
}
