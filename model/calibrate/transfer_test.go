package calibrate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// bounce is two cores of the model taking turns with a word on one line,
// each move charged move: a turn is pass, which waits for the word to be
// from and sets it to from+1. It returns the time of a half round trip,
// over 2000 round trips.
func bounce(t *testing.T, move time.Duration, pass func(b *bouncer, p *sim.Proc, from int)) time.Duration {
	t.Helper()
	const trips = 2000
	s := sim.New(1)
	b := &bouncer{cpus: sim.NewGoCPUs(s, 2, sim.Costs{Transfer: sim.Transfer{Socket: move}}), line: sim.NewLine(s)}
	b.cpus.SetSteadyStart(true)
	var start, end time.Duration
	s.Go(func(p *sim.Proc) {
		b.line.Write(p)
		start = p.Now()
		for i := range trips {
			pass(b, p, 2*i)
		}
		end = p.Now()
	})
	s.Go(func(p *sim.Proc) {
		for i := range trips {
			pass(b, p, 2*i+1)
		}
	})
	s.Run(time.Second)
	if end == 0 {
		t.Fatal("the loop did not finish")
	}
	return (end - start) / (2 * trips)
}

// bouncer is what bounce's turns share.
type bouncer struct {
	cpus *sim.CPUs
	line *sim.Line
	word int
}

// TestTransferIsTheModelsMove: the model, charging a move what
// calibrate's transfer reads, runs calibrate's own loop (each side
// writing the word, the other waiting to see it) in the time calibrate
// measured: a round trip is movesPerRoundTrip moves.
func TestTransferIsTheModelsMove(t *testing.T) {
	const move = 40 * time.Nanosecond
	// A side's turn: it looks until the word is its own, a look taking a
	// nanosecond of the core's own as a load that hits does, then stores.
	half := bounce(t, move, func(b *bouncer, p *sim.Proc, from int) {
		for {
			b.line.Read(p)
			if b.word == from {
				break
			}
			b.cpus.Burn(p, time.Nanosecond)
		}
		b.line.Write(p)
		b.word++
	})
	got := 2 * half / movesPerRoundTrip
	t.Logf("%v a half round trip: %v a move, charged %v", half, got, move)
	// Each move takes half again more or less at random (sim.Line), a
	// spread that 8000 moves average to within a few per cent; each look
	// adds its nanosecond.
	if got < move*9/10 || got > move*12/10 {
		t.Errorf("the model ran calibrate's loop at %v a move charged %v; want it back within 10 %% (calibrate divides a round trip by %d)", got, move, movesPerRoundTrip)
	}
}

// TestPublishedLatencyIsAMove: the core-to-core latencies an unknown
// machine's band spans (model.UnknownHardware) were timed by two threads
// each trying a compare-and-swap until it succeeds, bouncing the line
// (Chips and Cheese's and AnandTech's tests): the model runs that loop at
// one move a half round trip, so such a latency is a move as it stands.
func TestPublishedLatencyIsAMove(t *testing.T) {
	const move = 40 * time.Nanosecond
	// A side's turn: compare-and-swap tries, each taking the line and a
	// nanosecond of the core's own, until one finds the word its own.
	got := bounce(t, move, func(b *bouncer, p *sim.Proc, from int) {
		for {
			b.line.Write(p)
			if b.word == from {
				b.word++
				return
			}
			b.cpus.Burn(p, time.Nanosecond)
		}
	})
	t.Logf("%v a half round trip, charged %v a move", got, move)
	if got < move*9/10 || got > move*12/10 {
		t.Errorf("the model ran the published compare-and-swap bounce at %v a half trip, charged %v a move; want one move", got, move)
	}
}

// TestLoadHalvesOldTransfer: a calibration saved before format 1 read
// half a round trip as its transfer, two of the model's moves: Load
// halves it there (its intervals, earlier calibrations and samples too),
// and leaves a file of format 1 as it is.
func TestLoadHalvesOldTransfer(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, []byte(`{"samples": 100, "repeats": 6,
		"costs": {"switch_ns": 80, "transfer": {"socket_ns": 58}},
		"costs_lo": {"switch_ns": 79, "transfer": {"socket_ns": 56}},
		"costs_hi": {"switch_ns": 81, "transfer": {"socket_ns": 66}},
		"distributions": {"transfer_ns": [50, 58, 70]},
		"earlier": [{"date": "2026-11-25T00:00:00Z", "others_cpus": 0,
			"costs": {"transfer": {"socket_ns": 60}}, "costs_lo": {"transfer": {"socket_ns": 54}}, "costs_hi": {"transfer": {"socket_ns": 64}}}]}`), 0o644)
	c, err := Load(old)
	if err != nil {
		t.Fatal(err)
	}
	got := []time.Duration{c.Costs.Transfer.Socket, c.Lo.Transfer.Socket, c.Hi.Transfer.Socket,
		c.Earlier[0].Costs.Transfer.Socket, c.Earlier[0].Lo.Transfer.Socket, c.Earlier[0].Hi.Transfer.Socket}
	want := []time.Duration{29, 28, 33, 30, 27, 32}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("an old file's transfers (costs, lo, hi, earlier's) read %v; want %v", got, want)
		}
	}
	if d := c.Dists["transfer_ns"]; len(d) != 3 || d[0] != 25 || d[2] != 35 || c.Costs.Switch != 80 || c.Format != fileFormat {
		t.Errorf("an old file: samples %v, switch %v, format %d; want the samples halved, the rest as it was, format %d", d, c.Costs.Switch, c.Format, fileFormat)
	}
	current := filepath.Join(dir, "current.json")
	if err := Save(current, c); err != nil {
		t.Fatal(err)
	}
	again, err := Load(current)
	if err != nil {
		t.Fatal(err)
	}
	if again.Costs.Transfer.Socket != 29 {
		t.Errorf("a file of format %d read %v as its transfer; want the 29ns saved", fileFormat, again.Costs.Transfer.Socket)
	}
}
