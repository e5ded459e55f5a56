package text

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// ranking is a family's ranking on 64 CPUs: syncmap clearly first, or,
// where overlap, sharded's partly shared band reaching it.
func ranking(overlap bool) results.Ranking {
	r := results.Ranking{CPUs: 64, Group: "Cache/design=*/load=read", Unit: "ops/s", Clear: !overlap, Ranked: []results.Ranked{
		{Mode: "Cache/design=syncmap/load=read", Name: "syncmap", Throughput: 400e6, Band: [2]float64{300e6, 500e6}, Kind: "nothing shared"},
		{Mode: "Cache/design=sharded/load=read", Name: "sharded", Throughput: 100e6, Band: [2]float64{10e6, 200e6}, Kind: "partly shared"},
		{Mode: "Cache/design=mutex/load=read", Name: "mutex", Throughput: 5e6, Band: [2]float64{3e6, 7e6}, Kind: "one lock"},
	}}
	if overlap {
		r.Ranked[1].Band[1] = 700e6
		r.Overlap = []string{"Cache/design=sharded/load=read"}
	}
	return r
}

// Ranked says which makes the most, in the benchmark's unit with its band,
// the others after it; where bands overlap, no clear winner, and why.
func TestRanked(t *testing.T) {
	for _, c := range []struct {
		r    results.Ranking
		want string
	}{
		{ranking(false), "At 64 CPUs, of Cache/design=*/load=read, syncmap makes the most: 400M ops/s (300M–500M); then sharded 100M (10M–200M) and mutex 5M (3M–7M)."},
		{ranking(true), "At 64 CPUs, of Cache/design=*/load=read, no clear winner: syncmap makes 400M ops/s (300M–500M), sharded 100M (10M–700M), and their bands overlap (sharded is partly shared: its band runs from a line every core writes to a cost each operation pays apart); then mutex 5M (3M–7M)."},
		{results.Ranking{CPUs: 16, Unit: "ops/s", Clear: true, Ranked: []results.Ranked{{Name: "Book", Throughput: 2e6, Band: [2]float64{1e6, 3e6}}}}, "At 16 CPUs, Book makes 2M ops/s (1M–3M)."},
	} {
		if got := Ranked(c.r); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
	}
}

// The answer comes from the rankings on the most CPUs, and names where on
// fewer another clearly makes the most (every ranking keeps what it says); the table below
// ranks each family's rows by that count, in the unit, the band on it
// last, and says what each was read as.
func TestWriteRanking(t *testing.T) {
	two := ranking(false)
	two.CPUs, two.Ranked[0], two.Ranked[2] = 2, two.Ranked[2], two.Ranked[0]
	rs := []results.Ranking{two, ranking(true)}
	var b strings.Builder
	WriteRanked(&b, rs)
	if !strings.HasPrefix(b.String(), "At 64 CPUs") || strings.Contains(b.String(), "At 2 CPUs") || !strings.HasPrefix(rs[0].Said, "At 2 CPUs") ||
		!strings.HasSuffix(rs[1].Said, "then mutex 5M (3M–7M). On 2 CPUs, mutex makes the most.") {
		t.Errorf("answer:\n%s\nsaid %q, %q; want the 64 CPUs' ranking alone written, and 2 CPUs' other first", b.String(), rs[0].Said, rs[1].Said)
	}
	b.Reset()
	base := map[string]float64{"Cache/design=syncmap/load=read": 6e6, "Cache/design=sharded/load=read": 14e6, "Cache/design=mutex/load=read": 14e6}
	if err := WriteRanking(&b, rs, base, map[string]Checked{"one lock": {Held: 9, Points: 10}}, []int{1, 2, 64}, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 6 || strings.Fields(lines[0])[0] != "ops/s" || !strings.HasSuffix(lines[0], "band at 64") || strings.TrimSpace(lines[1]) != "Cache/design=*/load=read:" {
		t.Fatalf("table:\n%s", b.String())
	}
	for i, want := range []string{"syncmap 6M 400M 400M 300M–500M", "sharded 14M 100M 100M 10M–700M", "mutex 14M 5M 5M 3M–7M"} {
		if got := strings.Join(strings.Fields(lines[2+i]), " "); got != want {
			t.Errorf("row %d: %q, want %q", i+1, got, want)
		}
	}
	flat := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{"* measured here", "one lock (where checked, its bands held 9 of 10 points): Cache/design=mutex/load=read"} {
		if !strings.Contains(flat, want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// Beside families, the benchmarks of none are ranked under a line of
// their own, not under the last family's.
func TestWriteRankingTheRest(t *testing.T) {
	rest := results.Ranking{CPUs: 64, Unit: "ops/s", Clear: true, Ranked: []results.Ranked{
		{Mode: "Haxmap", Name: "Haxmap", Throughput: 9e9, Band: [2]float64{6e9, 1e10}},
		{Mode: "Ksuid", Name: "Ksuid", Throughput: 4e6, Band: [2]float64{2e6, 5e6}}}}
	var b strings.Builder
	if err := WriteRanking(&b, []results.Ranking{ranking(false), rest}, nil, nil, []int{64}, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 8 || strings.TrimSpace(lines[5]) != "the rest:" || strings.Fields(lines[6])[0] != "Haxmap" {
		t.Errorf("table:\n%s\nwant Haxmap and Ksuid under \"the rest:\"", b.String())
	}
}
