package main

import (
	"testing"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/lockwatch"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/truth"
)

// noLocks is the line brewput why writes for a design's benchmark that
// took no lock (where chans, used channels), wrapped as on a terminal.
func noLocks(design string, chans ...results.Machine) string {
	p := results.Point{Spec: results.Spec{CPUs: 2}, Ops: 1e6, Throughput: 1e6, Unit: "ops/s",
		Bench: &results.Benchmark{Name: "BenchmarkTruth/design=" + design, Locks: chans}}
	return format.Wrap(text.NoLocks(p, nil, lockwatch.SampleEvery)+".", 80, "") + "\n"
}

// TestReadJudge: why's JSON and its lines of no lock are read as the
// verdicts they say, and judged against the truth: a limit named must be
// the part, an answer that left a part undecided is undecided, never
// right.
func TestReadJudge(t *testing.T) {
	for _, c := range []struct {
		out, want, part, judged string
	}{
		{`{"limit": "the (*OneLock).Do at truth.go:116 mutex", "rounds": 6, "experiments": [{"decided": true}]}`, "limits", "(*OneLock).Do", "right"},
		{`{"limit": "the (*Sharded).Do at truth.go:130 mutexes (64)", "experiments": [{"decided": true}]}`, "does not", "", "wrong"},
		{`{"limit": "the intake channel's senders", "experiments": [{"decided": true}, {"decided": true}]}`, "limits", "slowstage", "wrong"},
		{`{"limit": "", "experiments": [{"decided": true}, {"decided": false}]}`, "does not", "", "undecided"},
		{`{"limit": "", "experiments": [{"decided": false}]}`, "limits", "lock", "undecided"},
		{`{"limit": "", "experiments": [{"decided": true}]}`, "does not", "", "right"},
		{`{"limit": "", "experiments": [{"decided": true}]}`, "limits", "lock", "wrong"},
		{noLocks("atomics"), "no lock", "", "right"},
		{"atomics used no metered lock or channel while measured (1 Mops/s on 2 CPUs): no metered part limits it.\n", "no lock", "", "right"},
		{noLocks("pipeline"), "limits", "slowstage", "wrong"},
		{noLocks("pipeline", results.Machine{Name: "(*Stage).Send at truth.go:150", Kind: "chan send", Uses: 1e6}), "limits", "slowstage", "undecided"},
	} {
		got, err := Read([]byte(c.out))
		if err != nil {
			t.Errorf("Read(%q): %v", c.out, err)
			continue
		}
		if j := Judge(truth.Verdict(c.want), c.part, got); j != c.judged {
			t.Errorf("%q against %s %q: %s (read %+v), want %s", c.out, c.want, c.part, j, got, c.judged)
		}
	}
	if _, err := Read([]byte("panic: oops\n")); err == nil {
		t.Error("a line that is neither JSON nor a line of no lock was read")
	}
}
