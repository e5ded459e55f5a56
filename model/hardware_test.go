package model

import (
	"strings"
	"testing"
	"time"
)

// TestNamedHardwareThreads: a machine whose vCPUs its host runs on demand
// (GCP's E2) has a band whose slow edge puts two of them on a core from
// the start, as an unknown machine's does, and says so; a named machine
// whose threads the operating system places itself does not, its shape
// saying where they are.
func TestNamedHardwareThreads(t *testing.T) {
	for name, want := range map[string]bool{"e2-highcpu-32": true, "c5.24xlarge": false, "xeon-e5620x2": false, "c6g.metal": false, "i7-13700h": false, "unknown": true} {
		hw, err := LookupHardware(name, 32)
		if err != nil {
			t.Fatal(err)
		}
		r := hw.Range()
		if r == nil || r.Threaded != want || hw.Threaded != want {
			t.Errorf("%s: threaded %v (range %+v), want %v", name, hw.Threaded, r, want)
		}
		if says := strings.Contains(hw.About, "two to a core"); says != want {
			t.Errorf("%s: %q says two to a core %v, want %v", name, hw.About, says, want)
		}
	}
}

// TestNamedHardwarePacked: a named machine of several sockets has a band
// that also keeps its Ps on one socket first, as Linux may, and says so;
// a machine of one socket, or one whose shape is not known, does not.
func TestNamedHardwarePacked(t *testing.T) {
	for name, want := range map[string]bool{"xeon-e5620x2": true, "c5.24xlarge": true, "c6g.metal": false, "e2-highcpu-32": false, "i7-13700h": false, "unknown": false} {
		hw, err := LookupHardware(name, 96)
		if err != nil {
			t.Fatal(err)
		}
		if r := hw.Range(); r == nil || r.Packed != want || hw.Packed != want {
			t.Errorf("%s: packed %v (range %+v), want %v", name, hw.Packed, r, want)
		}
		if says := strings.Contains(hw.About, "kept on one first"); says != want {
			t.Errorf("%s: %q says its threads may be kept on one socket %v, want %v", name, hw.About, says, want)
		}
	}
}

// TestKnownHardwareShopEdges: this machine's band spans its cores' speed
// with every one busy, which the shop's steps, times rather than work, do
// not feel: its edges are what they are without the machine's range.
func TestKnownHardwareShopEdges(t *testing.T) {
	hw := Hardware{Name: "this", Known: true}
	r := hw.Range()
	if r == nil || !r.OwnTransfer || r.SlowAll != allCoreLo {
		t.Fatalf("a known machine's range %+v; want its all-core speed spanned to %v, its transfer its calibration's", r, allCoreLo)
	}
	cfg := DefaultConfig(4)
	cfg.Mode, cfg.Policy.Sched = "locking", "go"
	cfg.Costs.Switch = 50
	hi := cfg.Costs
	hi.Switch = 60
	cfg.Range = &Range{Lo: cfg.Costs, Hi: hi}
	without := len(cfg.Edges())
	cfg.Range.Machine = r
	if with := len(cfg.Edges()); with != without {
		t.Errorf("the shop on a known machine: %d edges, %d without its range; want the same", with, without)
	}
}

// TestNamedHardwareTransfer: a named machine whose processor's core-to-
// core latency is published moves lines at it, its band ±20 %, and says
// where the figure comes from; one whose is not spans an unknown
// machine's range.
func TestNamedHardwareTransfer(t *testing.T) {
	unknown := UnknownHardware(32)
	for _, c := range []struct {
		name   string
		socket time.Duration
	}{{"c6g.metal", 47 * time.Nanosecond}, {"c5.24xlarge", 47 * time.Nanosecond}, {"e2-highcpu-32", unknown.Transfer.Socket}, {"xeon-e5620x2", unknown.Transfer.Socket}} {
		hw, err := LookupHardware(c.name, 32)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := hw.Lo.Socket, hw.Hi.Socket
		if c.socket == unknown.Transfer.Socket {
			if hw.Transfer != unknown.Transfer || hw.Lo != unknown.Lo || hw.Hi != unknown.Hi || strings.Contains(hw.About, "core-to-core") {
				t.Errorf("%s: moves at %v (%v–%v), %q; want an unknown machine's", c.name, hw.Transfer.Socket, lo, hi, hw.About)
			}
			continue
		}
		if hw.Transfer.Socket != c.socket || lo != c.socket*8/10 || hi != c.socket*125/100 || !strings.Contains(hw.About, "nviennot/core-to-core-latency") {
			t.Errorf("%s: moves at %v (%v–%v), %q; want %v ±20 %% from its published latency", c.name, hw.Transfer.Socket, lo, hi, hw.About, c.socket)
		}
	}
}
