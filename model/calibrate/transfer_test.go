package calibrate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// TestTransferIsTheModelsMove: the model, charging a move what
// calibrate's transfer reads, runs calibrate's own loop (each side
// writing the word, the other waiting to see it) in the time calibrate
// measured: a round trip is movesPerRoundTrip moves.
func TestTransferIsTheModelsMove(t *testing.T) {
	const move = 40 * time.Nanosecond
	const trips = 2000
	s := sim.New(1)
	cpus := sim.NewGoCPUs(s, 2, sim.Costs{Transfer: sim.Transfer{Socket: move}})
	cpus.SetSteadyStart(true)
	line := sim.NewLine(s)
	word := 0
	var start, end time.Duration
	// A look at the word takes a nanosecond of the core's own, as a
	// load that hits does.
	wait := func(p *sim.Proc, want int) {
		for {
			line.Read(p)
			if word == want {
				return
			}
			cpus.Burn(p, time.Nanosecond)
		}
	}
	s.Go(func(p *sim.Proc) { // transfers' own side
		line.Write(p)
		start = p.Now()
		for i := range trips {
			line.Write(p)
			word = 2*i + 1
			wait(p, 2*i+2)
		}
		end = p.Now()
	})
	s.Go(func(p *sim.Proc) { // the side that echoes
		for i := range trips {
			wait(p, 2*i+1)
			line.Write(p)
			word = 2*i + 2
		}
	})
	s.Run(time.Second)
	if end == 0 {
		t.Fatal("the loop did not finish")
	}
	got := (end - start) / (trips * movesPerRoundTrip)
	t.Logf("%d round trips in %v: %v a move, charged %v", trips, end-start, got, move)
	// Each move takes half again more or less at random (sim.Line), a
	// spread that 8000 moves average to within a few per cent; each look
	// adds its nanosecond.
	if got < move*9/10 || got > move*12/10 {
		t.Errorf("the model ran calibrate's loop at %v a move charged %v; want it back within 10 %% (calibrate divides a round trip by %d)", got, move, movesPerRoundTrip)
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

// TestPublishedLatencyIsAMove: the core-to-core latencies an unknown
// machine's band spans (model.UnknownHardware) were timed by two threads
// each trying a compare-and-swap until it succeeds, bouncing the line
// (Chips and Cheese's and AnandTech's tests): the model runs that loop at
// one move a half round trip, so such a latency is a move as it stands.
func TestPublishedLatencyIsAMove(t *testing.T) {
	const move = 40 * time.Nanosecond
	const trips = 2000
	s := sim.New(1)
	cpus := sim.NewGoCPUs(s, 2, sim.Costs{Transfer: sim.Transfer{Socket: move}})
	cpus.SetSteadyStart(true)
	line := sim.NewLine(s)
	word := 0
	var start, end time.Duration
	// cas tries until the word is from and it sets it to from+1; each
	// try takes the line, and a nanosecond of the core's own.
	cas := func(p *sim.Proc, from int) {
		for {
			line.Write(p)
			if word == from {
				word++
				return
			}
			cpus.Burn(p, time.Nanosecond)
		}
	}
	s.Go(func(p *sim.Proc) {
		line.Write(p)
		start = p.Now()
		for i := range trips {
			cas(p, 2*i)
		}
		end = p.Now()
	})
	s.Go(func(p *sim.Proc) {
		for i := range trips {
			cas(p, 2*i+1)
		}
	})
	s.Run(time.Second)
	if end == 0 {
		t.Fatal("the loop did not finish")
	}
	got := (end - start) / (2 * trips)
	t.Logf("%d round trips in %v: %v a half trip, charged %v a move", trips, end-start, got, move)
	if got < move*9/10 || got > move*12/10 {
		t.Errorf("the model ran the published compare-and-swap bounce at %v a half trip, charged %v a move; want one move", got, move)
	}
}
