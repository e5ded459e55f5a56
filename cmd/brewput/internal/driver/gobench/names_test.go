package gobench

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTopBenchmarks: the top-level benchmarks a pattern's first part
// matches, read from test files as go test finds them: functions named
// Benchmark, or Benchmark and a name that does not start lower-case, of
// one *B parameter and no result; the pattern split as testing splits
// it, at slashes and bars outside brackets and parentheses.
func TestTopBenchmarks(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import tt "testing"

func BenchmarkBook(b *tt.B)            {}
func BenchmarkCache(b *tt.B)           {}
func Benchmark(b *tt.B)                {}
func Benchmarkish(b *tt.B)             {}
func BenchmarkTwo(b *tt.B, n int)      {}
func BenchmarkResult(b *tt.B) int      { return 0 }
func BenchmarkNotB(t *tt.T)            {}
func (x) BenchmarkMethod(b *tt.B)      {}
type x struct{}
`
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	names := topBenchmarks(dir, []string{"x_test.go", "missing_test.go"})
	if want := []string{"BenchmarkBook", "BenchmarkCache", "Benchmark"}; !slices.Equal(names, want) {
		t.Errorf("benchmarks %v, want %v", names, want)
	}
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{"Book/design=onelock", []string{"BenchmarkBook"}},
		{"Book|Cache/design=mutex", []string{"BenchmarkBook", "BenchmarkCache"}},
		{"(Book|Cache)/x", []string{"BenchmarkBook", "BenchmarkCache"}},
		{"Bo[/]ok", nil},
		{"/design=onelock", []string{"BenchmarkBook", "BenchmarkCache", "Benchmark"}},
		{`Cache\/x`, nil},
		{"^BenchmarkBook$/a|^Nothing", []string{"BenchmarkBook"}},
	} {
		var got []string
		for _, n := range names {
			for _, re := range firstParts(c.pattern) {
				if re.MatchString(n) {
					got = append(got, n)
					break
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q matches %v, want %v", c.pattern, got, c.want)
		}
	}
}

// A benchmark measured again alone is matched level by level, whole, its
// name's regular expression's characters taken as they are.
func TestExactly(t *testing.T) {
	for name, want := range map[string]string{
		"BenchmarkBook/design=sharded": `^BenchmarkBook$/^design=sharded$`,
		"BenchmarkX/a.b(c)/n=[1]":      `^BenchmarkX$/^a\.b\(c\)$/^n=\[1\]$`,
	} {
		if got := exactly(name); got != want {
			t.Errorf("exactly(%q) = %q, want %q", name, got, want)
		}
	}
}
