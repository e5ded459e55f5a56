package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// mapBenchmarks is two implementations of a map, each under two read
// ratios, named as puzpuzpuz/xsync names its benchmarks: the
// implementation in the top-level name, the load in a key.
const mapBenchmarks = `goos: linux
pkg: example.com/maps
BenchmarkXMap/reads=99% 1000 10 ns/op
BenchmarkXMap/reads=75% 1000 20 ns/op
BenchmarkStdMap/reads=99% 1000 25 ns/op
BenchmarkStdMap/reads=75% 1000 40 ns/op
`

// TestBenchFamiliesBy: by default the read ratios are an implementation's
// variants; by .name, as benchstat's -col .name, the implementations are
// compared under each read ratio; a projection not of the names is
// refused.
func TestBenchFamiliesBy(t *testing.T) {
	points, err := results.ReadBench(strings.NewReader(mapBenchmarks), "maps.txt")
	if err != nil {
		t.Fatal(err)
	}
	names := func(fs []familyView) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.name+": "+strings.Join(f.variants, ", "))
		}
		return out
	}
	var byDefault []familyView
	for _, f := range BenchFamilies(points) {
		byDefault = append(byDefault, familyView{f.Name, f.Variants})
	}
	if want := []string{"XMap/reads=*: 99%, 75%", "StdMap/reads=*: 99%, 75%"}; !slices.Equal(names(byDefault), want) {
		t.Errorf("default families %q, want %q", names(byDefault), want)
	}
	fs, err := BenchFamiliesBy(points, ".name")
	if err != nil {
		t.Fatal(err)
	}
	var byName []familyView
	for _, f := range fs {
		byName = append(byName, familyView{f.Name, f.Variants})
		if len(f.Counts) != 1 || f.Counts[0].CPUs != 1 {
			t.Errorf("family %s: standings %+v, want one, on 1 CPU", f.Name, f.Counts)
		}
	}
	if want := []string{"*/reads=99%: XMap, StdMap", "*/reads=75%: XMap, StdMap"}; !slices.Equal(names(byName), want) {
		t.Errorf("families by .name %q, want %q", names(byName), want)
	}
	fs, err = BenchFamiliesBy(points, "/reads")
	if err != nil || len(fs) != 2 || fs[0].Name != "XMap/reads=*" {
		t.Errorf("families by /reads: %v, %+v; want the default's", err, fs)
	}
	if _, err := BenchFamiliesBy(points, ".config"); err == nil || !strings.Contains(err.Error(), "want .name or /key") {
		t.Errorf("a projection of the configuration: %v, want it refused", err)
	}
	if _, err := BenchFamiliesBy(points, "/("); err == nil {
		t.Errorf("a malformed projection was accepted")
	}
}

// TestTopLevelNamesCompared: benchmarks whose names share nothing, as a
// package's BenchmarkMutex and BenchmarkSharded, are compared by their
// top level, by default as with -col .name, under a title naming them;
// so are names that agree below their top level; a benchmark alone in
// its package stays alone.
func TestTopLevelNamesCompared(t *testing.T) {
	const out = `pkg: example.com/locks
BenchmarkMutex 1000 100 ns/op
BenchmarkMutex-2 1000 90 ns/op
BenchmarkSharded 1000 100 ns/op
BenchmarkSharded-2 1000 50 ns/op
BenchmarkMutex/load=read 1000 80 ns/op
BenchmarkSharded/load=read 1000 40 ns/op
pkg: example.com/other
BenchmarkAlone 1000 10 ns/op
`
	points, err := results.ReadBench(strings.NewReader(out), "locks.txt")
	if err != nil {
		t.Fatal(err)
	}
	byCol, err := BenchFamiliesBy(points, ".name")
	if err != nil {
		t.Fatal(err)
	}
	for _, fs := range [][]analysis.BenchFamily{BenchFamilies(points), byCol} {
		var got []string
		for _, f := range fs {
			got = append(got, f.Name+": "+strings.Join(f.Variants, ", "))
			if f.Name == "*" {
				t.Errorf("a family titled *: %+v", f)
			}
		}
		want := []string{"Mutex vs Sharded: Mutex, Sharded", "*/load=read: Mutex, Sharded", "Alone: Alone"}
		if !slices.Equal(got, want) {
			t.Errorf("families %q, want %q", got, want)
		}
		if len(fs) > 0 && (len(fs[0].Counts) != 2 || fs[0].Counts[1].CPUs != 2 || fs[0].Counts[1].Top != "Sharded") {
			t.Errorf("Mutex vs Sharded: standings %+v, want Sharded the most on 2 CPUs", fs[0].Counts)
		}
	}
}

type familyView struct {
	name     string
	variants []string
}

// TestFamiliesAskWhatIsLeftOut: where two keys vary, the one with a value
// that leaves something out is the question (logrus's lock=shared against
// lock=none, under each writer), wherever it stands in the name; where no
// value says so, the first key (examples/cache's design, under each load).
func TestFamiliesAskWhatIsLeftOut(t *testing.T) {
	for _, c := range []struct {
		names    []string
		families map[string][]string // family → its variants, in order
	}{
		{[]string{"Logrus/out=slow/lock=shared", "Logrus/out=slow/lock=none", "Logrus/out=discard/lock=shared", "Logrus/out=discard/lock=none"},
			map[string][]string{"Logrus/out=slow/lock=*": {"shared", "none"}, "Logrus/out=discard/lock=*": {"shared", "none"}}},
		{[]string{"Cache/design=mutex/load=read", "Cache/design=mutex/load=write", "Cache/design=sharded/load=read", "Cache/design=sharded/load=write"},
			map[string][]string{"Cache/design=*/load=read": {"mutex", "sharded"}, "Cache/design=*/load=write": {"mutex", "sharded"}}},
		{[]string{"Sum/cache=off/n=10", "Sum/cache=on/n=10", "Sum/cache=off/n=20", "Sum/cache=on/n=20"},
			map[string][]string{"Sum/cache=*/n=10": {"off", "on"}, "Sum/cache=*/n=20": {"off", "on"}}},
	} {
		of := familiesOf(c.names)
		got := map[string][]string{}
		for _, n := range c.names {
			family, variant := of(n)
			got[family] = append(got[family], variant)
		}
		if len(got) != len(c.families) {
			t.Errorf("%v: families %v, want %v", c.names, got, c.families)
			continue
		}
		for f, want := range c.families {
			if !slices.Equal(got[f], want) {
				t.Errorf("%v: family %s has %v, want %v (all: %v)", c.names, f, got[f], want, got)
			}
		}
	}
}
