package studyjob

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// roundsOf is a planned experiment of one lock, its first run as it is
// disturbed or not, and a run that measures every later run so.
func roundsOf(disturbed bool) (*why.Stretches, func(i int) (results.Point, error), *int) {
	point := func() results.Point {
		p := results.Point{Spec: results.Spec{Mode: "v", CPUs: 2, Load: results.Load{Par: 2, Dur: time.Second}}, Ops: 1000, Throughput: 1000,
			Study: &results.Study{Name: "s", Meters: []results.Machine{{Name: "lock", Kind: "mutex", Uses: 1000, BusyFrac: 0.5}}}}
		p.Disturbed = disturbed
		return p
	}
	s := why.PlanStretches("s", 0.5, point())
	s.Base = append(s.Base, point())
	runs := 0
	return s, func(int) (results.Point, error) { runs++; return point(), nil }, &runs
}

// TestRoundsStopWhereTheyWouldNotDecide: a run as it is disturbed, where
// the rounds that would end in time are fewer than the undisturbed ones a
// part is decided on, starts no round; rounds all disturbed stop as soon
// as the rounds left could not make up the undisturbed ones; a quiet
// machine, or --noisy ok (no retry), runs the rounds it was given. The
// answer says why it stopped.
func TestRoundsStopWhereTheyWouldNotDecide(t *testing.T) {
	busy := Experiment{Count: 6, MaxCount: 20, Retry: sweep.DefaultRetry(), Within: 3 * time.Minute}
	// The first run took 20 s with its retries: 60 s a round of three runs,
	// the first's run as it is done, three rounds in 3 minutes.
	s, run, runs := roundsOf(true)
	if err := busy.Rounds(s, time.Now(), 20*time.Second, io.Discard, run); err != nil || *runs != 0 || s.Stop == nil ||
		s.Stop.Left != 3 || s.Stop.Rounds != 0 || s.Stop.Need != 6 {
		t.Fatalf("busy before its rounds: err %v, %d runs, stop %+v; want no run, stopped with 3 rounds left", err, *runs, s.Stop)
	}
	if a := text.StretchAnswer(s); !strings.HasPrefix(a, "Undecided: its run as it is was disturbed") ||
		!strings.Contains(a, "It did not start its rounds: at about 60 s a round") || !strings.HasSuffix(a, "What would decide it: a quieter machine, or more time (--within, --max-count).") {
		t.Errorf("answer %q", a)
	}

	// Every run disturbed, 8 rounds at most: 7 left after the first and 6
	// after the second could still make 6 undisturbed; 5 after the third
	// cannot.
	busy.MaxCount, busy.Within = 8, 0
	s, run, runs = roundsOf(true)
	if err := busy.Rounds(s, time.Now(), time.Millisecond, io.Discard, run); err != nil || s.Stop == nil || s.Stop.Rounds != 3 || len(s.Control.Points) != 3 {
		t.Fatalf("every run disturbed: err %v, stop %+v after %d rounds; want stopped after 3", err, s.Stop, len(s.Control.Points))
	}
	if a := text.StretchAnswer(s); !strings.HasPrefix(a, "Undecided after 3 rounds") || !strings.Contains(a, "It stopped after 3 rounds, 0 undisturbed") {
		t.Errorf("answer %q", a)
	}

	// Quiet: the rounds it was given, whatever they can decide.
	s, run, _ = roundsOf(false)
	if err := busy.Rounds(s, time.Now(), 20*time.Second, io.Discard, run); err != nil || s.Stop != nil || len(s.Control.Points) < 6 {
		t.Errorf("quiet: err %v, stop %+v after %d rounds; want at least 6", err, s.Stop, len(s.Control.Points))
	}
	// --noisy ok: disturbed runs kept, not measured again: no early stop.
	ok := busy
	ok.Retry = sweep.Retry{}
	s, run, _ = roundsOf(true)
	if err := ok.Rounds(s, time.Now(), time.Millisecond, io.Discard, run); err != nil || s.Stop != nil || len(s.Control.Points) != 8 {
		t.Errorf("--noisy ok: err %v, stop %+v after %d rounds; want all 8", err, s.Stop, len(s.Control.Points))
	}
}
