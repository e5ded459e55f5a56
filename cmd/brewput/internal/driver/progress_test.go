package driver

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// late shows nothing before its delay has passed, and measure's lines
// (on a writer that is not a terminal) once it has.
func TestLateShowsProgressOnlyAfterItsDelay(t *testing.T) {
	st := &shopsweep.Batch{Specs: []shopsweep.Spec{{Mode: coffee.Mode{Family: "locking"}, Load: sweep.Load{CPUs: 1}}, {Mode: coffee.Mode{Family: "locking"}, Load: sweep.Load{CPUs: 2}}}, Count: 1}
	points := []results.Point{{Spec: results.Spec{Mode: "locking", CPUs: 1}, Throughput: 250, Unit: "lattes/s"}, {Spec: results.Spec{Mode: "locking", CPUs: 2}, Throughput: 500, Unit: "lattes/s"}}

	var quiet bytes.Buffer
	done, finish := late(&quiet, st, time.Now(), time.Hour)
	done(points[:1])
	done(points)
	finish()
	if quiet.Len() != 0 {
		t.Errorf("within its delay, late wrote %q", quiet.String())
	}

	var shown bytes.Buffer
	done, finish = late(&shown, st, time.Now().Add(-time.Minute), time.Second)
	done(points[:1])
	done(points)
	finish()
	if got := shown.String(); !strings.Contains(got, "[1/2] locking cpus=1") || !strings.Contains(got, "[2/2] locking cpus=2") {
		t.Errorf("past its delay, late wrote %q; want a line a point", got)
	}
}

// TestLateRedraws: past its delay late draws its progress though no point
// is done yet, redrawing it while done may be called at the same time
// (the race detector's business), and finish stops the redrawing (goleak's).
func TestLateRedraws(t *testing.T) {
	st := &shopsweep.Batch{Specs: []shopsweep.Spec{{Mode: coffee.Mode{Family: "locking"}, Load: sweep.Load{CPUs: 1}}}, Count: 1}
	var shown syncBuffer
	done, finish := late(&shown, st, time.Now().Add(-time.Minute), time.Second)
	time.Sleep(progressEvery + progressEvery/5) // a redraw, no point done
	done([]results.Point{{Spec: results.Spec{Mode: "locking", CPUs: 1}, Throughput: 250, Unit: "lattes/s"}})
	finish()
	if got := shown.String(); !strings.Contains(got, "[1/1] locking cpus=1") {
		t.Errorf("late wrote %q; want the point's line", got)
	}
}
