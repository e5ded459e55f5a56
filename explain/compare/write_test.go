package compare

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/report/text"
)

// TestWrite: table and json write what text.WriteComparison and WriteJSON
// do; any other format is refused naming the accepted ones.
func TestWrite(t *testing.T) {
	c := Compare(nil, nil, Options{})
	for format, write := range map[string]func(*strings.Builder) error{
		"table": func(b *strings.Builder) error { return text.WriteComparison(b, c) },
		"json":  func(b *strings.Builder) error { return c.WriteJSON(b) },
	} {
		var got, want strings.Builder
		if err := text.WriteCompared(&got, c, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: wrote %q, want %q", format, got.String(), want.String())
		}
	}
	if _, err := Files("old", "new", Options{}, "xml", nil); err == nil || !strings.Contains(err.Error(), "accepted: table, json") {
		t.Errorf("xml: %v", err)
	}
	if TwoFiles([]string{"a", "b"}) != nil || TwoFiles([]string{"a"}) == nil {
		t.Error("TwoFiles takes exactly two files")
	}
}
