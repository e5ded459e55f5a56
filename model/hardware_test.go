package model

import (
	"testing"
)

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
