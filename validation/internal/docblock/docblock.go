// Package docblock holds a block of a doc file to what a validation
// command prints now, for the command's test.
package docblock

import (
	"os"
	"strings"
	"testing"
)

// Check fails t where the text between start and end in the file doc is
// not got, or, with update, writes got there; rewrite says how to update.
func Check(t testing.TB, doc, start, end, got string, update bool, rewrite string) {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no block between %q and %q", doc, start, end)
	}
	if got == s[i+len(start):j] {
		return
	}
	if update {
		if err := os.WriteFile(doc, []byte(s[:i+len(start)]+got+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s quotes otherwise than the command prints now (%s rewrites it)", doc, rewrite)
}
