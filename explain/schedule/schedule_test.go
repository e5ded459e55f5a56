package schedule

import (
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"

	"github.com/brewput/brewput/results/analysis"

	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/trace"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ms = time.Millisecond

// checkTimeline checks what holds of any timeline: bars on its CPUs,
// inside its span, never two at once on one CPU.
func checkTimeline(t *testing.T, tl analysis.Timeline) {
	t.Helper()
	if len(tl.Bars) == 0 {
		t.Fatalf("%s: no bars", text.TimelineTitle(tl))
	}
	for i, b := range tl.Bars {
		switch {
		case b.CPU < 0 || b.CPU >= tl.CPUs:
			t.Fatalf("%s: bar on CPU %d of %d: %+v", text.TimelineTitle(tl), b.CPU, tl.CPUs, b)
		case b.Start < 0 || b.End > tl.Span || b.End <= b.Start:
			t.Fatalf("%s: bar %+v outside [0, %v]", text.TimelineTitle(tl), b, tl.Span)
		case i > 0 && tl.Bars[i-1].CPU == b.CPU && tl.Bars[i-1].End > b.Start:
			t.Fatalf("%s: CPU %d runs two bars at once: %+v, %+v", text.TimelineTitle(tl), b.CPU, tl.Bars[i-1], b)
		}
	}
}

// TestFromModel: the model's finelocking on 6 CPUs, as the talk draws it:
// its grinder busy all the time, its CPUs two thirds.
func TestFromModel(t *testing.T) {
	cfg := model.DefaultConfig(6)
	cfg.Policy.Sched = "fifo"
	tl, err := FromModel(cfg, Span)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, tl)
	u := tl.Use()
	if u.Steps < 0.6 || u.Steps > 0.73 || len(u.Kinds) != 3 || u.Kinds[0].Kind != "grinder" || u.Kinds[0].Held < 0.95 {
		t.Errorf("use %+v; want the CPUs two thirds busy (4 of 6) and the grinder all the time", u)
	}
	if got := text.TimelineTitle(tl); got != "finelocking on 6 CPUs, model (fifo)" {
		t.Errorf("title %q", got)
	}
	var out strings.Builder
	if err := text.WriteTimelineText(&out, tl, 80); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	if len(lines) < 1+6+2 || !strings.HasPrefix(lines[1], "CPU 0 |") || !strings.Contains(out.String(), "G") {
		t.Errorf("text of 6 CPUs:\n%s", out.String())
	}
	// Gaps: 2 of the 6 CPUs' time runs no step, which the text shows as dots.
	if dots := strings.Count(strings.Join(lines[1:7], ""), "."); dots < 100 {
		t.Errorf("%d idle columns of 432; finelocking leaves a third idle:\n%s", dots, out.String())
	}
}

// TestFromTrace: a real run of finelocking on 2 Ps, traced, reads back as
// steps named after coffee's machines on those Ps; the trace knows no
// customers, so each bar names its goroutine.
func TestFromTrace(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("the test binary is being traced already")
	}
	shop, err := coffee.Open(coffee.MustParseMode("finelocking"), coffee.Steps{Grind: 200 * time.Microsecond, Press: 200 * time.Microsecond, Steam: 200 * time.Microsecond, Combine: 200 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	defer shop.Close()
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for range 40 {
				if err := shop.Brew(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	trace.Stop()

	// A span longer than the whole run, so that every step is in it: a
	// narrower window in the middle may fall where a busy machine ran
	// other processes and hold no step at all.
	procs := runtime.GOMAXPROCS(0)
	tl, err := FromTrace(&buf, "finelocking", procs, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	checkTimeline(t, tl)
	kinds := map[string]bool{}
	for _, b := range tl.Bars {
		kinds[b.Kind()] = true
		if b.Machine != analysis.Other && b.Who <= 0 {
			t.Errorf("step %+v names no goroutine", b)
		}
	}
	for _, k := range []string{"grinder", "espresso", "steamer", analysis.Combine} {
		if !kinds[k] {
			t.Errorf("no %q step in the trace's timeline; kinds %v", k, kinds)
		}
	}
	if tl.Who != "goroutine" || tl.Source != "execution trace" {
		t.Errorf("who %q, source %q", tl.Who, tl.Source)
	}
}

// TestFromTraceNotATrace: anything else is an error, not a picture.
func TestFromTraceNotATrace(t *testing.T) {
	if _, err := FromTrace(strings.NewReader("not a trace"), "finelocking", 2, Span); err == nil {
		t.Error("no error reading text as a trace")
	}
}

// ParseFrom reads model, trace or both, and refuses anything else naming
// --from; CheckTrace refuses a missing file and a folder.
func TestParseFromAndCheckTrace(t *testing.T) {
	for _, c := range []struct {
		from        string
		model, tr   bool
		wantErrPart string
	}{{"model", true, false, ""}, {"trace", false, true, ""}, {"model, trace", true, true, ""}, {"model,x", false, false, `--from "model,x": want model, trace or model,trace`}} {
		m, tr, err := ParseFrom(c.from)
		if c.wantErrPart != "" {
			if err == nil || err.Error() != c.wantErrPart {
				t.Errorf("ParseFrom(%q) = %v, want %q", c.from, err, c.wantErrPart)
			}
			continue
		}
		if err != nil || m != c.model || tr != c.tr {
			t.Errorf("ParseFrom(%q) = %v, %v, %v; want %v, %v", c.from, m, tr, err, c.model, c.tr)
		}
	}
	dir := t.TempDir()
	if err := CheckTrace(filepath.Join(dir, "none.trace")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("CheckTrace of no file = %v", err)
	}
	if err := CheckTrace(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("CheckTrace of a folder = %v", err)
	}
	file := filepath.Join(dir, "x.trace")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckTrace(file); err != nil {
		t.Errorf("CheckTrace of a file = %v", err)
	}
}

// TestFromModelBusyIsModelUtil: the picture's bars cover the CPUs' busy
// time as the model counts it, so that its text ("ran steps … and other
// Go code …") says the utilization the model reports for the same window,
// under both policies — steps still running at the window's end and the
// runtime's own work included — for every family of the shop's modes,
// with and without jitter, from 1 to 8 CPUs.
func TestFromModelBusyIsModelUtil(t *testing.T) {
	costs := sim.Costs{Switch: 200, Wake: 20 * time.Microsecond, SpinWake: 15 * time.Microsecond, MutexHandoff: 300,
		ChanHandoff: time.Microsecond, BufChanHandoff: time.Microsecond, RunnextGrace: 60 * time.Microsecond}
	modes := []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-1", "splitpipe-2", "multipipe-2"}
	for _, sched := range []string{"fifo", "go"} {
		for _, m := range modes {
			for _, n := range []int{1, 2, 3, 6, 8} {
				for _, jitter := range []time.Duration{0, 300 * time.Microsecond} {
					cfg := model.DefaultConfig(n)
					cfg.Mode, cfg.Policy.Sched, cfg.Steps.Jitter = m, sched, jitter
					if sched == "go" {
						cfg.Costs = costs
					}
					tl, err := FromModel(cfg, Span)
					if err != nil {
						t.Fatal(err)
					}
					checkTimeline(t, tl)
					cfg.Warmup, cfg.Dur = tl.Start, Span
					ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
					if err != nil {
						t.Fatal(err)
					}
					u := tl.Use()
					if d := u.Steps + u.Other - ps[0].Metrics[results.Util]; d > 0.001 || d < -0.001 {
						t.Errorf("%s, jitter %v: the picture's CPUs are busy %.4f (steps %.4f, other %.4f), the model's %.4f over the same %v",
							text.TimelineTitle(tl), jitter, u.Steps+u.Other, u.Steps, u.Other, ps[0].Metrics[results.Util], Span)
					}
				}
			}
		}
	}
}
