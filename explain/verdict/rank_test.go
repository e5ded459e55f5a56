package verdict

import (
	"slices"
	"testing"

	"github.com/brewput/brewput/results"
)

// predicted is a prediction's point of mode on n CPUs, its band lo–hi.
func predicted(mode string, n int, thr, lo, hi float64) results.Point {
	return results.Point{Kind: results.KindBench, Source: results.SourceModel, Spec: results.Spec{Mode: mode, CPUs: n},
		Throughput: thr, Unit: "ops/s", Band: &results.Band{Throughput: [2]float64{lo, hi}}}
}

// TestRank: each family is ranked on each count apart, the most first;
// the first is clearly the most only where its band lies above every
// other's, and those whose bands reach it are named.
func TestRank(t *testing.T) {
	points := []results.Point{
		predicted("Cache/design=mutex/load=read", 64, 5e6, 3e6, 7e6),
		predicted("Cache/design=syncmap/load=read", 64, 400e6, 300e6, 500e6),
		predicted("Cache/design=sharded/load=read", 64, 100e6, 10e6, 700e6),
		predicted("Cache/design=mutex/load=write", 64, 5e6, 3e6, 7e6),
		predicted("Cache/design=syncmap/load=write", 64, 40e6, 20e6, 60e6),
		predicted("Cache/design=mutex/load=write", 2, 9e6, 8e6, 10e6),
		predicted("Cache/design=syncmap/load=write", 2, 8e6, 7e6, 9e6),
	}
	got := Rank(points, []int{2, 64}, map[string][]int{"Cache/design=mutex/load=write": {1, 2}}, map[string]string{"Cache/design=sharded/load=read": "partly shared"})
	if len(got) != 3 {
		t.Fatalf("%d rankings, want write on 2 CPUs, read and write on 64: %+v", len(got), got)
	}
	two, read, write := got[0], got[1], got[2]
	names := func(r results.Ranking) []string {
		var out []string
		for _, v := range r.Ranked {
			out = append(out, v.Name)
		}
		return out
	}
	if two.CPUs != 2 || !slices.Equal(names(two), []string{"mutex", "syncmap"}) || two.Clear || !two.Ranked[0].Measured {
		t.Errorf("2 CPUs: %+v; want mutex first, measured, its band met by syncmap's", two)
	}
	if read.Group != "Cache/design=*/load=read" || !slices.Equal(names(read), []string{"syncmap", "sharded", "mutex"}) || read.Clear ||
		!slices.Equal(read.Overlap, []string{"Cache/design=sharded/load=read"}) || read.Ranked[1].Kind != "partly shared" {
		t.Errorf("read on 64: %+v; want syncmap, sharded, mutex, sharded's band reaching syncmap's", read)
	}
	if !slices.Equal(names(write), []string{"syncmap", "mutex"}) || !write.Clear || write.Unit != "ops/s" {
		t.Errorf("write on 64: %+v; want syncmap clearly first", write)
	}
	// A variant that is a number is named with its key.
	keys := Rank([]results.Point{predicted("Count/keys=1", 16, 1e6, 1e6, 1e6), predicted("Count/keys=4096", 16, 2e6, 2e6, 2e6)}, []int{16}, nil, nil)
	if len(keys) != 1 || keys[0].Ranked[0].Name != "keys=4096" || keys[0].Ranked[1].Name != "keys=1" {
		t.Errorf("numbered variants: %+v; want keys=4096, then keys=1", keys)
	}
	// Benchmarks of no family are ranked together.
	alone := Rank([]results.Point{predicted("Rate", 16, 1e6, 1e6, 1e6), predicted("Logrus", 16, 2e6, 2e6, 2e6)}, []int{16}, nil, nil)
	if len(alone) != 1 || alone[0].Group != "" || alone[0].Ranked[0].Name != "Logrus" {
		t.Errorf("no family: %+v; want one ranking, Logrus first", alone)
	}
}
