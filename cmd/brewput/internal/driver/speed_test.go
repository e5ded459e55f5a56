package driver

import (
	"context"
	"io"
	"strings"
	"testing"
)

// case7 is the command of issue 27's case 7: six modes on 1 to 16 CPUs,
// 60 s of virtual time a point, each with its band and causal profile,
// under the go policy with a two-core machine's calibration.
var case7 = []string{"model", "--modes", "ideal,locking,finelocking,multi-2,linearpipe-0,linearpipe-1", "--cpus", "1-16", "--dur", "60s",
	"--calibration", "testdata/calibration-2core.json"}

// BenchmarkModelSweep runs the case-7 command, table and all, once an op: the
// time a user waits for 96 points with their bands and profiles.
//
//	go test ./cmd/brewput/internal/driver -run '^$' -bench ModelSweep -benchtime 1x -count 5
func BenchmarkModelSweep(b *testing.B) {
	for b.Loop() {
		if code := runEnv(context.Background(), case7, &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, child: noChild()}); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(96, "points")
}
