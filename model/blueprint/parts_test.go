package blueprint_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// A causal profile's reliefs of a YAML system: its steps with what is held
// while they run, its stages, and options that shorten a step, add a
// stage's worker or a channel's room.
func TestPartsAndReliefs(t *testing.T) {
	cafe, err := blueprint.Load("../../examples/cafe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cafe.Steps() {
		got = append(got, s.Name+":"+strings.Join(s.Holds, "+"))
	}
	if want := []string{"order:cashier", "grind:barista", "shot:espresso+barista", "steam:barista", "pour:barista"}; !slices.Equal(got, want) {
		t.Errorf("cafe's steps %v, want %v", got, want)
	}
	opt := model.SystemConfig(cafe, 4)
	opt.Policy.Sched = "fifo"
	base, err := point(opt)
	if err != nil {
		t.Fatal(err)
	}
	// The baristas bind (8 ms a latte, two of them): 10 % off their
	// steaming (3 ms of the 8) lifts the bound from 250 to 260.
	c := *cafe
	c.Scale = map[string]float64{"steam": 0.9}
	opt.System = &c
	faster, err := point(opt)
	if err != nil {
		t.Fatal(err)
	}
	if base.Throughput != 250 || faster.Throughput < 258 || faster.Throughput > 262 {
		t.Errorf("cafe on 4 CPUs: %.0f, steaming 10 %% faster %.0f; want 250 and about 260", base.Throughput, faster.Throughput)
	}

	sp, err := blueprint.Load("../../examples/splitpipe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if st := sp.Stages(); len(st) != 3 || st[1] != (blueprint.StageInfo{Name: "espresso", Workers: 1, Lines: 1, Buffer: 1}) {
		t.Errorf("splitpipe's stages %+v", st)
	}
	more := *sp
	more.Workers = map[string]int{"grinder": 1, "espresso": 1, "steamer": 1}
	more.Buffers = map[string]int{"espresso": 4}
	opt = model.SystemConfig(&more, 8)
	opt.Policy.Sched = "fifo"
	r, err := point(opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bounds.Structural != 2000 || r.Throughput < 1500 {
		t.Errorf("splitpipe with two workers a stage on 8 CPUs: %.0f lattes/s, structural bound %.0f; want past 1500, 2000", r.Throughput, r.Bounds.Structural)
	}
	for _, bad := range []func(b *blueprint.Blueprint){
		func(b *blueprint.Blueprint) { b.Scale = map[string]float64{"nosuch": 0.9} },
		func(b *blueprint.Blueprint) { b.Scale = map[string]float64{"combine": 0} },
		func(b *blueprint.Blueprint) { b.Workers = map[string]int{"nosuch": 1} },
		func(b *blueprint.Blueprint) { b.Buffers = map[string]int{"grinder": -1} },
	} {
		b := *sp
		bad(&b)
		if _, err := point(model.SystemConfig(&b, 1)); err == nil {
			t.Errorf("scale %v, workers %v, buffers %v: no error", b.Scale, b.Workers, b.Buffers)
		}
	}
}

// point simulates cfg and gives its point.
func point(cfg model.Config) (results.Point, error) {
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		return results.Point{}, err
	}
	return ps[0], nil
}
