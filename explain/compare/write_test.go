package compare

import (
	"strings"
	"testing"
)

// TestWrite: table and json write what WriteTable and WriteJSON do; any
// other format is refused naming the accepted ones, and writes nothing.
func TestWrite(t *testing.T) {
	c := Compare(nil, nil, Options{})
	for format, write := range map[string]func(*strings.Builder) error{
		"table": func(b *strings.Builder) error { return c.WriteTable(b) },
		"json":  func(b *strings.Builder) error { return c.WriteJSON(b) },
	} {
		var got, want strings.Builder
		if err := c.Write(&got, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: wrote %q, want %q", format, got.String(), want.String())
		}
	}
	var b strings.Builder
	if err := c.Write(&b, "xml"); err == nil || !strings.Contains(err.Error(), "accepted: table, json") || b.Len() != 0 {
		t.Errorf("xml: %v, wrote %q", err, b.String())
	}
	if TwoFiles([]string{"a", "b"}) != nil || TwoFiles([]string{"a"}) == nil {
		t.Error("TwoFiles takes exactly two files")
	}
}
