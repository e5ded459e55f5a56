package lab

import (
	"cmp"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

func TestChecks(t *testing.T) {
	type kind string
	for _, tc := range []struct {
		err  error
		want string
	}{
		{Within("reps", 0, 1, 100, "runs per point"), "reps 0: want 1 to 100 runs per point"},
		{Within("reps", 101, 1, 100, "runs per point"), "reps 101: want 1 to 100 runs per point"},
		{Within("reps", 1, 1, 100, "runs per point"), ""},
		{AtLeast("add-size", 0, 1, "integer"), "add-size 0: want at least 1 integer"},
		{AtLeast("reps", -2, 1, ""), "reps -2: want at least 1"},
		{AtLeast("reps", 1, 1, ""), ""},
		{AtMost("docs", 2_000_000, 1_000_000, "documents"), "docs 2000000: want at most 1000000 documents"},
		{AtMost("reps", 5000, 1000, ""), "reps 5000: want at most 1000"},
		{AtMost("reps", 1000, 1000, ""), ""},
		{EachWithin("clients", []int{1, 4, 0, 9000}, 1, 4096, "clients"), "clients 0: want 1 to 4096 clients"},
		{EachWithin("clients", nil, 1, 4096, "clients"), ""},
		{Buffers("size", []int{0, 1 << 20, -1}, 1<<20, "a channel size", "messages"), "size -1: want a channel size of 0 (unbuffered) to 1048576 messages"},
		{NotEmpty("batch", []int{}, "batch size"), "batch: want at least one batch size"},
		{NotEmpty("batch", []int{1}, "batch size"), ""},
		{Choices("kinds", []kind{"file", "disk"}, []kind{"memory", "file"}, "want memory, file"), `kinds "disk": want memory, file`},
		{Choices("kinds", []kind{"file", "memory", "file"}, []kind{"memory", "file"}, "want memory, file"), `kinds "file": given twice`},
		{Refuse(true, "malformed %d: more than the %d messages of a run", 5, 4), "malformed 5: more than the 4 messages of a run"},
		{Refuse(false, "never"), ""},
		// A Validate's order: the first error of its list.
		{cmp.Or(Within("a", 1, 1, 2, "x"), NotEmpty("b", []int{}, "b"), Within("c", 0, 1, 2, "x")), "b: want at least one b"},
	} {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	_, err := os.Stat("/no/such/file")
	if got := atomicfile.WithoutPath(err); !errors.Is(got, os.ErrNotExist) || got.Error() != "no such file or directory" {
		t.Errorf("WithoutPath: %v", got)
	}
	if other := errors.New("other"); atomicfile.WithoutPath(other) != other {
		t.Error("WithoutPath changed an error that is not a path's")
	}
}

func TestPoint(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 6_789_000, time.FixedZone("x", 3600))
	p := Point("t", "v", 4, sweep.Window{Start: start, Wall: time.Second, Usage: harness.Usage{CPU: 3 * time.Second}}, map[results.Metric]float64{"m": 1})
	if p.Source != results.SourceMeasured || p.LabName() != "t" || p.Kind != results.KindLab || p.Variant() != "v" || p.Mode != "t/v" || p.CPUs != 4 ||
		p.Metrics[results.CPUUsed] != 3 || p.Metrics[results.Util] != 0.75 || p.Metrics["m"] != 1 || !p.Start.Equal(start.Round(time.Millisecond)) || p.Start.Location() != time.UTC {
		t.Errorf("Point: %+v", p)
	}
	h := hdrhistogram.New(1, int64(time.Hour), 3)
	for _, d := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 3 * time.Millisecond} {
		_ = h.RecordValue(int64(d))
	}
	if err := Latencies(&p, h); err != nil || p.Latency.Max < 2.99 || p.Latency.Max > 3.01 || p.Hist == "" {
		t.Fatalf("Latencies: %v, %+v, hist %d bytes", err, p.Latency, len(p.Hist))
	}
	back, err := p.Histogram()
	if err != nil || back.TotalCount() != 3 {
		t.Errorf("the histogram read back: %v, %v", back, err)
	}
}
