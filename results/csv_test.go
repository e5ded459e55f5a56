package results

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// csvCells is WriteCSV's row of each point, by column, every row as wide
// as the header.
func csvCells(t *testing.T, points ...Point) []map[string]string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, points); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll() // fails on a row of another width
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, name := range rows[0] {
			m[name] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// checkCells fails where a cell of row is not as want says.
func checkCells(t *testing.T, what string, row, want map[string]string) {
	t.Helper()
	for col, w := range want {
		if got, ok := row[col]; !ok || got != w {
			t.Errorf("%s: CSV column %s = %q (there: %v), want %q", what, col, got, ok, w)
		}
	}
}
