package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// A ranking written after a stream's points reads back as it was, beside
// them and the variants not predicted, with no note; one that ranks
// nothing is refused, naming its line.
func TestRankingsRead(t *testing.T) {
	r := Ranking{CPUs: 64, Group: "Cache/design=*/load=read", Unit: "ops/s", Overlap: []string{"Cache/design=sharded/load=read"}, Said: "At 64 CPUs…",
		Ranked: []Ranked{{Mode: "Cache/design=syncmap/load=read", Name: "syncmap", Throughput: 4e8, Band: [2]float64{3e8, 5e8}, Kind: "nothing shared"},
			{Mode: "Cache/design=sharded/load=read", Name: "sharded", Throughput: 1e8, Band: [2]float64{1e7, 7e8}, Kind: "partly shared", Measured: true}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	if err := AppendRankings(&b, []Ranking{r}); err != nil {
		t.Fatal(err)
	}
	if err := AppendNotPredicted(&b, []NotPredicted{{Mode: "X", Reason: "why", Why: DeclinedPastCurves, CPUs: 512, Measured: 16, Reach: 256}}); err != nil {
		t.Fatal(err)
	}
	f, err := Read(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rankings) != 1 || !reflect.DeepEqual(f.Rankings[0], r) || len(f.NotPredicted) != 1 || f.NotPredicted[0].Reach != 256 || len(f.Notes) != 0 {
		t.Errorf("read back %+v, not predicted %+v, notes %q; want %+v", f.Rankings, f.NotPredicted, f.Notes, r)
	}
	_, err = Read([]byte(`{"brewput":"results","schema":3}` + "\n" + `{"brewput":"ranking","cpus":4,"ranked":[]}` + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2: not a brewput ranking record") {
		t.Errorf("a ranking of nothing: %v", err)
	}
}
