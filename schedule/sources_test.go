package schedule

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ParseFrom reads model, trace or both, and refuses anything else naming
// --from; CheckTrace refuses a missing file and a folder.
func TestParseFromAndCheckTrace(t *testing.T) {
	for _, c := range []struct {
		from        string
		model, tr   bool
		wantErrPart string
	}{{"model", true, false, ""}, {"trace", false, true, ""}, {"model, trace", true, true, ""}, {"model,x", false, false, `--from "model,x": want model, trace or model,trace`}} {
		m, tr, err := ParseFrom(c.from)
		if c.wantErrPart != "" {
			if err == nil || err.Error() != c.wantErrPart {
				t.Errorf("ParseFrom(%q) = %v, want %q", c.from, err, c.wantErrPart)
			}
			continue
		}
		if err != nil || m != c.model || tr != c.tr {
			t.Errorf("ParseFrom(%q) = %v, %v, %v; want %v, %v", c.from, m, tr, err, c.model, c.tr)
		}
	}
	dir := t.TempDir()
	if err := CheckTrace(filepath.Join(dir, "none.trace")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("CheckTrace of no file = %v", err)
	}
	if err := CheckTrace(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("CheckTrace of a folder = %v", err)
	}
	file := filepath.Join(dir, "x.trace")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckTrace(file); err != nil {
		t.Errorf("CheckTrace of a file = %v", err)
	}
}
