package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func TestReplaceDir(t *testing.T) {
	for _, exists := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "report")
		if exists {
			writeAll(t, dir, map[string]string{"index.html": "old page", "old.svg": "old chart", "notes.txt": "mine"})
		}
		staging := StagingDir(dir)
		writeAll(t, staging, map[string]string{"index.html": "new page", "new.svg": "new chart"})
		own := func(name string) bool { return name == "notes.txt" }
		if err := ReplaceDir(staging, dir, own); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"index.html": "new page", "new.svg": "new chart"}
		if exists {
			want["notes.txt"] = "mine" // a user's file is carried over, the old report's are gone
		}
		got := readAll(t, dir)
		if len(got) != len(want) {
			t.Errorf("exists=%v: the folder holds %v, want %v", exists, got, want)
		}
		for name, data := range want {
			if got[name] != data {
				t.Errorf("exists=%v: %s holds %q, want %q", exists, name, got[name], data)
			}
		}
		if _, err := os.Stat(staging); !os.IsNotExist(err) {
			t.Errorf("exists=%v: the staging folder is still there: %v", exists, err)
		}
	}
}

func TestExchangeByRenames(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	writeAll(t, a, map[string]string{"x": "a"})
	writeAll(t, b, map[string]string{"x": "b"})
	if err := exchangeByRenames(a, b); err != nil {
		t.Fatal(err)
	}
	if readAll(t, a)["x"] != "b" || readAll(t, b)["x"] != "a" {
		t.Errorf("not exchanged: a %v, b %v", readAll(t, a), readAll(t, b))
	}
	entries, _ := os.ReadDir(base)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("the exchange left %v", names)
	}
}

func TestStagingAndDest(t *testing.T) {
	s := StagingDir("r/")
	if s != "r.partial" {
		t.Errorf("StagingDir(r/) = %s", s)
	}
	if dot := StagingDir("."); !filepath.IsAbs(dot) || filepath.Base(dot) == ".partial" {
		t.Errorf("StagingDir(.) = %s, want the working folder's name beside it", dot)
	}
	if d, ok := DestOf(s); !ok || filepath.Base(d) != "r" {
		t.Errorf("DestOf(%s) = %s, %v", s, d, ok)
	}
	if _, ok := DestOf("r"); ok {
		t.Errorf("DestOf(r) is ok")
	}
	if _, ok := DestOf(".partial"); ok {
		t.Errorf("DestOf(.partial) is ok")
	}
}
