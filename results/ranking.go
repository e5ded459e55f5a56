package results

import (
	"encoding/json"
	"fmt"
	"io"
)

// rankingRecord names a Ranking's line in a stream of points.
const rankingRecord = "ranking"

// Ranking is a prediction's variants of one group on one CPU count, the
// most throughput first: the answer to which makes the most there.
type Ranking struct {
	CPUs int `json:"cpus"`
	// Group is what its variants share that others do not ("load=read"
	// of Cache/design=…/load=read), "" where all were ranked together.
	Group  string   `json:"group,omitempty"`
	Unit   string   `json:"unit"`
	Ranked []Ranked `json:"ranked"`
	// Clear says the first's band lies above every other's: it makes
	// the most wherever in their bands they fall. Where not, Overlap
	// names the others whose bands reach the first's.
	Clear   bool     `json:"clear"`
	Overlap []string `json:"overlap,omitempty"`
	// Said is the same in words, as report/text says it.
	Said string `json:"said,omitempty"`
}

// Ranked is a variant's place in a Ranking.
type Ranked struct {
	Mode string `json:"mode"`
	// Name tells it from the others of its group (design=mutex).
	Name       string     `json:"name"`
	Throughput float64    `json:"throughput"`
	Band       [2]float64 `json:"band"`
	Kind       string     `json:"kind,omitempty"`     // what it was read as (package curves), where predicted
	Measured   bool       `json:"measured,omitempty"` // measured on this count, not predicted
}

// AppendRankings writes each as a line after a stream's points.
func AppendRankings(w io.Writer, rs []Ranking) error {
	enc := json.NewEncoder(w)
	for _, r := range rs {
		if err := enc.Encode(struct {
			Record string `json:"brewput"`
			Ranking
		}{rankingRecord, r}); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) readRanking(n int, line []byte) error {
	var r Ranking
	if err := json.Unmarshal(line, &r); err != nil || r.CPUs < 1 || len(r.Ranked) == 0 {
		return fmt.Errorf("line %d: not a brewput ranking record (want cpus and what was ranked): %s", n, line)
	}
	f.Rankings = append(f.Rankings, r)
	return nil
}
