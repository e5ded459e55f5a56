package main

import (
	"context"
	"strings"
	"testing"

	"github.com/brewput/brewput/measure/meter"
)

// TestVariants runs every variant's operation as brewput study's child
// does, without the load: Setup makes and fills its cache, each Op takes
// its locks, and Meters are the variant's metered mutexes, each counting
// its uses (cmd/brewput/internal/driver's tests measure the program through brewput
// study).
func TestVariants(t *testing.T) {
	s := cacheStudy()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"mutex": 1, "sharded": 16, "syncmap": 0}
	ctx := context.Background()
	for _, v := range s.Variants {
		if err := v.Setup(ctx); err != nil {
			t.Fatalf("%s: setup: %v", v.Name, err)
		}
		for range 1000 {
			if err := v.Op(ctx); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
		}
		meters, uses := v.Meters(), int64(0)
		for _, m := range meters {
			uses += m.Read().Uses
			if m.Kind() != meter.KindMutex {
				t.Errorf("%s: meter %s of kind %s, want a mutex", v.Name, m.Name(), m.Kind())
			}
		}
		design, _, _ := strings.Cut(v.Name, "-")
		if n := want[design]; len(meters) != n || (n > 0 && uses < 1000) {
			t.Errorf("%s: %d meters counting %d uses, want %d counting the filling and the 1000 operations", v.Name, len(meters), uses, n)
		}
	}
}
