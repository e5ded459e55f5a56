package schedule

import (
	"github.com/brewput/brewput/results/analysis"

	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/trace"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/results/resultstest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ms = time.Millisecond

// TestFromTrace: a real run of finelocking on 2 Ps, traced, reads back as
// steps named after coffee's machines on those Ps; the trace knows no
// customers, so each bar names its goroutine.
func TestFromTrace(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("the test binary is being traced already")
	}
	shop, err := coffee.OpenVariant(coffee.MustParseMode("finelocking"), coffee.Steps{Grind: 200 * time.Microsecond, Press: 200 * time.Microsecond, Steam: 200 * time.Microsecond, Combine: 200 * time.Microsecond}, coffee.Variant{})
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
	resultstest.CheckTimeline(t, tl)
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
	if _, err := FromTrace(strings.NewReader("not a trace"), "finelocking", 2, 20*ms); err == nil {
		t.Error("no error reading text as a trace")
	}
}

// CheckTrace refuses a missing file and a folder.
func TestCheckTrace(t *testing.T) {
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
