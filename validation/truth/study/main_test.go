package main

import (
	"context"
	"sync"
	"testing"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/validation/truth"
)

// TestVariants runs every variant's operation as brewput study's child
// does, from two goroutines, without the load: one variant a design, each
// with the meters its design has, counting the operations' uses.
func TestVariants(t *testing.T) {
	s := truthStudy()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	// Each variant's meters, their kind, and the uses an operation
	// counts.
	want := map[string]struct {
		kind      string
		meters    int
		usesPerOp int64
	}{
		"onelock-long": {meter.KindMutex, 1, 1}, "onelock-short": {meter.KindMutex, 1, Batch}, "shards64": {meter.KindMutex, truth.Shards, 1},
		"pergoroutine": {meter.KindMutex, 16, 1}, "atomics": {"", 0, 0}, "rwreaders": {meter.KindRWMutex, 1, 1}, "pipeline": {"", 4, 4},
		"onelock-long-relief": {meter.KindMutex, 16, 1}, "onelock-short-relief": {meter.KindMutex, 16, Batch}, "shards64-relief": {meter.KindMutex, 16, 1},
		"pergoroutine-relief": {"", 0, 0}, "rwreaders-relief": {"", 0, 0}, "pipeline-relief": {"", 4, 4},
	}
	if len(s.Variants) != len(want) {
		t.Errorf("%d variants, want %d: each design and its relief, but atomics'", len(s.Variants), len(want))
	}
	ctx := context.Background()
	for _, v := range s.Variants {
		w, ok := want[v.Name]
		if !ok {
			t.Errorf("variant %s: not a design this test knows", v.Name)
			continue
		}
		if v.Setup != nil {
			if err := v.Setup(ctx); err != nil {
				t.Fatalf("%s: setup: %v", v.Name, err)
			}
		}
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for range 500 {
					if err := v.Op(ctx); err != nil {
						t.Errorf("%s: %v", v.Name, err)
						return
					}
				}
			})
		}
		wg.Wait()
		if v.Teardown != nil {
			if err := v.Teardown(ctx); err != nil {
				t.Fatalf("%s: teardown: %v", v.Name, err)
			}
		}
		meters, uses := v.Meters(), int64(0)
		for _, m := range meters {
			uses += m.Read().Uses
			if w.kind != "" && m.Kind() != w.kind {
				t.Errorf("%s: meter %s of kind %s, want %s", v.Name, m.Name(), m.Kind(), w.kind)
			}
		}
		// A pipeline's item is counted by both sides of both channels.
		wantUses := 1000 * w.usesPerOp
		if len(meters) != w.meters || uses != wantUses {
			t.Errorf("%s: %d meters counting %d uses, want %d counting %d", v.Name, len(meters), uses, w.meters, wantUses)
		}
	}
}
