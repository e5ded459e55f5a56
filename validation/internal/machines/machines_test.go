package machines

import (
	"testing"
	"time"

	"github.com/brewput/brewput/model"
)

// TestThreadedAndPacked: a machine whose vCPUs its host runs on demand
// (GCP's E2) has a band whose slow edge puts two of them on a core, as an
// unknown machine's does; one of several sockets has a band that also keeps
// its Ps on one socket first; the others neither.
func TestThreadedAndPacked(t *testing.T) {
	for _, c := range []struct {
		name             string
		threaded, packed bool
	}{{"e2-highcpu-32", true, false}, {"c5.24xlarge", false, true}, {"xeon-e5620x2", false, true},
		{"c6g.metal", false, false}, {"i7-13700h", false, false}, {"unknown", true, false}} {
		hw, err := Lookup(c.name, 32)
		if err != nil {
			t.Fatal(err)
		}
		if r := hw.Range(); r == nil || r.Threaded != c.threaded || r.Packed != c.packed {
			t.Errorf("%s: range %+v, want threaded %v, packed %v", c.name, r, c.threaded, c.packed)
		}
	}
	if _, err := Lookup("this", 4); err == nil {
		t.Error("Lookup(this): no error, want one naming the machines known")
	}
}

// TestTransfer: a machine whose processor's core-to-core latency is
// published moves lines at it, its band ±20 %; one whose is not spans an
// unknown machine's range.
func TestTransfer(t *testing.T) {
	unknown := model.UnknownHardware(32)
	for _, c := range []struct {
		name   string
		socket time.Duration
	}{{"c6g.metal", 47 * time.Nanosecond}, {"c5.24xlarge", 47 * time.Nanosecond}, {"e2-highcpu-32", 0}, {"xeon-e5620x2", 0}} {
		hw, err := Lookup(c.name, 32)
		if err != nil {
			t.Fatal(err)
		}
		if c.socket == 0 {
			if hw.Transfer != unknown.Transfer || hw.Lo != unknown.Lo || hw.Hi != unknown.Hi {
				t.Errorf("%s: moves at %+v (%+v–%+v), want an unknown machine's", c.name, hw.Transfer, hw.Lo, hw.Hi)
			}
			continue
		}
		if hw.Transfer.Socket != c.socket || hw.Lo.Socket != c.socket*8/10 || hw.Hi.Socket != c.socket*125/100 ||
			hw.Transfer.Stay != unknown.Transfer.Stay || hw.Lo.Stay != unknown.Lo.Stay || hw.Hi.Stay != unknown.Hi.Stay {
			t.Errorf("%s: moves at %+v (%+v–%+v), want %v ±20 %% and an unknown machine's stays", c.name, hw.Transfer, hw.Lo, hw.Hi, c.socket)
		}
	}
}
