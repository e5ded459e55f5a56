package wordcount

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goleak checks after all tests that no wc process's pipe copier or
// anything else was left running.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{" \t\n", 0},
		{"a", 1},
		{" a ", 1},
		{"one two  three\n", 3},
		{"a\tb\nc\vd\fe\rf", 6},
		{"trailing", 1},
		{"héllo wörld", 2},  // bytes from 0x80 up are not space
		{"a\u00a0b", 1},     // nor is a no-break space, in the C locale
		{"a\x85b c", 2},     // nor NEL
		{"x\x00y z", 2},     // a NUL is not space either
		{"\n\nword\n\n", 1}, // blank lines
	} {
		if got := Words([]byte(tc.text)); got != tc.want {
			t.Errorf("Words(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	a, b := Text(50_000), Text(50_000)
	if string(a) != string(b) {
		t.Fatal("Text is not deterministic")
	}
	if len(a) != 50_000 || !plainASCII(a) {
		t.Fatalf("Text(50000): %d bytes, plain ASCII %v", len(a), plainASCII(a))
	}
	if long := Text(80_000); string(long[:50_000]) != string(a) {
		t.Error("Text(50000) is not the start of Text(80000)")
	}
	words := Words(a)
	if per := float64(len(a)) / float64(words); per < 4 || per > 9 {
		t.Errorf("%d words in %d bytes, %.1f bytes a word: not prose-like", words, len(a), per)
	}
	for _, c := range []string{"\t", "  ", "\n\n", ".", "A"} {
		if !strings.Contains(string(a), c) {
			t.Errorf("Text has no %q", c)
		}
	}
	if len(Text(0)) != 0 || len(Text(1)) != 1 {
		t.Error("Text of 0 or 1 bytes")
	}
}

// writeFile writes text to a file in a test's directory.
func writeFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "text")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCountWays(t *testing.T) {
	for _, text := range []string{"", "   ", "a", "no newline at end", "\tlead and trail \n", string(Text(30_000)), "héllo wörld\n"} {
		path := writeFile(t, text)
		want := int64(Words([]byte(text)))
		for name, count := range map[string]func(string) (int64, int64, error){
			"bytewise": countBytewise, "buffered": countBuffered, "reused": countReused,
		} {
			words, n, err := count(path)
			if err != nil || words != want || n != int64(len(text)) {
				t.Errorf("%s of %.20q: %d words in %d bytes, %v; want %d in %d", name, text, words, n, err, want, len(text))
			}
		}
	}
	if _, _, err := countBuffered(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("count of a missing file: no error")
	}
}

// TestCountReaders feeds countWords readers that bend the io.Reader rules
// as far as they allow: data with io.EOF, one byte at a time, an error
// midway.
func TestCountReaders(t *testing.T) {
	const text = "the quick  brown\tfox\n"
	for _, reuse := range []bool{false, true} {
		for name, r := range map[string]io.Reader{
			"data with EOF": iotest.DataErrReader(strings.NewReader(text)),
			"one byte":      iotest.OneByteReader(strings.NewReader(text)),
			"half":          iotest.HalfReader(strings.NewReader(text)),
		} {
			words, n, err := countWords(r, reuse)
			if err != nil || words != 4 || n != int64(len(text)) {
				t.Errorf("%s (reuse %v): %d words in %d bytes, %v; want 4 in %d", name, reuse, words, n, err, len(text))
			}
		}
		if _, _, err := countWords(iotest.TimeoutReader(strings.NewReader(text)), reuse); !errors.Is(err, iotest.ErrTimeout) {
			t.Errorf("reader failing midway (reuse %v): error %v, want %v", reuse, err, iotest.ErrTimeout)
		}
	}
}

// TestAllocs: bytewise and buffered allocate once per byte read, reused a
// handful of times per file, whatever the file's size.
func TestAllocs(t *testing.T) {
	path := writeFile(t, string(Text(10_000)))
	for _, tc := range []struct {
		name     string
		count    func(string) (int64, int64, error)
		min, max float64
	}{
		{"bytewise", countBytewise, 10_000, 10_100},
		{"buffered", countBuffered, 10_000, 10_100},
		{"reused", countReused, 0, 20},
	} {
		allocs := testing.AllocsPerRun(3, func() {
			if _, _, err := tc.count(path); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %.0f allocs per 10000-byte file", tc.name, allocs)
		if allocs < tc.min || allocs > tc.max {
			t.Errorf("%s: %.0f allocs per 10000-byte file, want %.0f to %.0f", tc.name, allocs, tc.min, tc.max)
		}
	}
}

func TestWC(t *testing.T) {
	wc, err := exec.LookPath("wc")
	if err != nil {
		t.Skip("no wc on the PATH")
	}
	text := Text(100_000)
	path := writeFile(t, string(text))
	words, cpu, err := wcWords(context.Background(), wc, path)
	if err != nil {
		t.Fatal(err)
	}
	if words != int64(Words(text)) {
		t.Errorf("wc -w counts %d words, Words %d", words, Words(text))
	}
	if cpu < 0 {
		t.Errorf("wc CPU time %v", cpu)
	}
	if _, _, err := wcWords(context.Background(), filepath.Join(t.TempDir(), "nowc"), path); err == nil {
		t.Error("a wc that does not exist: no error")
	}
}

func TestValidate(t *testing.T) {
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "size", Edit: func(c *Config) { c.Size = 0 }},
		{Flag: "size", Edit: func(c *Config) { c.Size = 200_000_000 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 0 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 5000 }},
		{Flag: "file", Edit: func(c *Config) { c.File = filepath.Join(t.TempDir(), "missing.txt") }},
		{Flag: "file", Edit: func(c *Config) { c.File = t.TempDir() }},
	})
	file := writeFile(t, "some words")
	ok := DefaultConfig()
	ok.File = file
	if err := ok.Validate(); err != nil {
		t.Errorf("config with a file: %v", err)
	}
	labtest.Binds(t, NewLab(), Config{File: file, Size: 5, Reps: 2}, "--file", file, "--size", "5", "--reps", "2")
	if err := labtest.Bind(NewLab(), "--size", "0"); err == nil || !strings.HasPrefix(err.Error(), "--size 0") {
		t.Errorf("--size 0: %v", err)
	}
}

func TestRunPoints(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)                             // to see the generated text removed
	c := Config{Size: 20_000, Reps: lab.IntervalRuns()} // for the speedup's interval
	ways := []string{"bytewise", "buffered", "reused"}
	if _, err := exec.LookPath("wc"); err == nil {
		ways = append(ways, "wc")
	}
	ps, told := labtest.RunLab(t, labtest.With(NewLab(), c), []int{1, 2}, 2*len(ways), "bytes/s",
		[]results.Metric{MetricMedianMs, MetricWords, MetricSpeedup, lab.Lo(MetricSpeedup), lab.Hi(MetricSpeedup), MetricAllocsPerOp, MetricBytesPerOp})
	lines := labtest.Lines(told, text.LabEvent)
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("Run left %v in the temporary directory", left)
	}
	if len(ways) == 3 {
		lines = lines[1:] // the note that wc is missing
	}
	words := float64(Words(Text(c.Size)))
	host := ps[0].Host
	for i, p := range ps {
		w, n := ways[i%len(ways)], 1+i/len(ways)
		if p.Variant() != w || p.CPUs != n || p.Par != 1 {
			t.Errorf("point %d: variant %q cpus %d par %d", i, p.Variant(), p.CPUs, p.Par)
		}
		if p.Ops != int64(c.Size) || p.Unit != "bytes/s" || p.Dur.Seconds() <= 0 || p.Throughput != float64(p.Ops)/p.Dur.Seconds() {
			t.Errorf("%s: ops %d unit %q dur %v throughput %v", w, p.Ops, p.Unit, p.Dur.Seconds(), p.Throughput)
		}
		if p.Metrics["words"] != words {
			t.Errorf("%s: words %v, want %v", w, p.Metrics["words"], words)
		}
		if p.Metrics["median_ms"] != p.Latency.P50 || p.Latency.Min > p.Latency.Max {
			t.Errorf("%s: median %v, latency %+v", w, p.Metrics["median_ms"], p.Latency)
		}
		// The median of bytewise's time over this way's, run by run, in
		// its interval; bytewise's own exactly 1.
		m := p.Metrics
		lo, sp, hi := m[lab.Lo(MetricSpeedup)], m[MetricSpeedup], m[lab.Hi(MetricSpeedup)]
		line := strings.ReplaceAll(lines[i], "\n  ", " ")
		if !(0 < lo && lo <= sp && sp <= hi) || (w == "bytewise" && (lo != 1 || hi != 1)) || !strings.Contains(line, fmt.Sprintf("×%.1f [%.1f, %.1f]", sp, lo, hi)) {
			t.Errorf("%s: speedup %v in [%v, %v]; line %q", w, sp, lo, hi, line)
		}
		allocs, hasAllocs := p.Metrics["allocs_per_op"]
		switch w {
		case "bytewise", "buffered":
			if allocs < float64(c.Size) || p.Metrics["bytes_per_op"] < float64(c.Size) {
				t.Errorf("%s: %v allocs/op, %v B/op, want at least one per byte", w, allocs, p.Metrics["bytes_per_op"])
			}
		case "reused":
			if !hasAllocs || allocs > 20 {
				t.Errorf("reused: %v allocs/op (present %v), want a handful", allocs, hasAllocs)
			}
		case "wc":
			if hasAllocs {
				t.Errorf("wc: allocs/op %v, want none: not this process's", allocs)
			}
		}
		if p.Host != host {
			t.Errorf("%s: host %+v, want %+v", w, p.Host, host)
		}
		if !strings.Contains(lines[i], "/"+w+" ") {
			t.Errorf("progress line %q does not name %s", lines[i], w)
		}
	}
}

// TestRunFile counts a given file, one that is not plain ASCII: the ways
// agree with Words, and wc, which may count it otherwise, is no error.
func TestRunFile(t *testing.T) {
	text := "héllo wörld\u00a0again\x01 and\u2003more\n"
	c := Config{File: writeFile(t, text), Size: 1, Reps: 1}
	ps, err := Run(context.Background(), c, []int{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Ops != int64(len(text)) {
			t.Errorf("%s: ops %d, want %d", p.Variant(), p.Ops, len(text))
		}
		if p.Variant() != "wc" && p.Metrics["words"] != float64(Words([]byte(text))) {
			t.Errorf("%s: words %v, want %d", p.Variant(), p.Metrics["words"], Words([]byte(text)))
		}
	}
	if _, err := os.Stat(c.File); err != nil {
		t.Errorf("the given file is gone: %v", err)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lines := 0
	ps, err := Run(ctx, Config{Size: 5000, Reps: 2}, []int{1, 1, 1}, func(results.LabEvent) {
		if lines++; lines == 3 {
			cancel() // once the first count's Go ways are reported
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if len(ps) < 3 || len(ps) > 4 || ps[0].CPUs != 1 {
		t.Errorf("%d points kept, want those of the first count", len(ps))
	}
}

func TestRunBadArgs(t *testing.T) {
	if _, err := Run(context.Background(), Config{Size: 0, Reps: 1}, []int{1}, nil); err == nil || !strings.HasPrefix(err.Error(), "size 0") {
		t.Errorf("size 0: error %v", err)
	}
}
