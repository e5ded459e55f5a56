package driver

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestRunTalkHarness measures a point through the talk's harness in a
// child process, as any point: it says so in its JSON and in the table's
// notes. The model takes the same flag.
func TestRunTalkHarness(t *testing.T) {
	t.Parallel()
	stdout, _ := succeeds(t, selfChild(),
		"run", "--harness", "talk", "--modes", "finelocking", "--cpus", "1", "--par", "2", "--dur", "100ms", "--warmup", "20ms", "--noisy", "ok", "--format", "json")
	points, err := results.ReadJSON(strings.NewReader(stdout))
	if err != nil || len(points) != 1 {
		t.Fatalf("%v: %s", err, stdout)
	}
	if p := points[0]; p.Harness != "talk" || p.Ops == 0 || p.Par != 2 {
		t.Errorf("harness %q, %d ops, par %d; want talk, some, 2", p.Harness, p.Ops, p.Par)
	}
	var table strings.Builder
	text.WriteTable(&table, points)
	if !strings.Contains(table.String(), "talk harness") {
		t.Errorf("table without the talk harness note:\n%s", table.String())
	}
	if p := modelPoints(t, "--harness", "talk", "--sched", "fifo", "--modes", "finelocking", "--cpus", "2", "--dur", "100ms")[0]; p.Harness != "talk" || p.Throughput != 500 {
		t.Errorf("model: harness %q, %v lattes/s; want talk, 500", p.Harness, p.Throughput)
	}
}
