package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readSeeds are the reproducers of bad files: numbers below zero, past
// an int or not numbers, a byte-order mark, a cut-short last line.
var readSeeds = []string{
	`{"brewput":"results","schema":2}` + "\n" + `{"kind":"shop","source":"h","mode":"noop","cpus":1,"par":1,"throughput":-10,"ops":10,"unit":"ops/s","shop":{}}` + "\n",
	`{"brewput":"results","schema":2}` + "\n" + `{"kind":"shop","source":"h","mode":"noop","cpus":4611686018427387904,"par":1,"throughput":10,"ops":10,"unit":"ops/s","shop":{}}` + "\n",
	`{"brewput":"results","schema":2}` + "\n" + `{"kind":"shop","source":"h","mode":"noop","cpus":1,"par":1,"throughput":10,"ops":10,"unit":"ops/s","latency_ms":{"p50":-1},"shop":{}}` + "\n",
	`{"brewput":"results","schema":2}` + "\n" + `{"kind":"shop","source":"h","mode":"noop","cpus":1,"par":1,"throughp`,
	"\xef\xbb\xbfkind,source,mode,cpus\nshop,h,noop,1\n",
	"goos: linux\nBenchmarkX 1000 NaN ns/op\n",
	"goos: linux\nBenchmarkX-4611686018427387904 1000 100 ns/op\n",
	"goos: linux\nBenchmarkX 1000 -5 ns/op\n",
	"BenchmarkX 1 1e308 ns/op 1e308 lattes/s\n",
}

// FuzzRead: whatever a file holds, reading it returns points or an error,
// never a panic, and every point it returns passes CheckRead.
func FuzzRead(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "samples", "*"))
	files = append(files, filepath.Join("testdata", "gotest-bench.txt"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(data)
		if err != nil {
			return
		}
		for i, p := range file.Points {
			if err := p.CheckRead(); err != nil {
				t.Errorf("point %d was read, but: %v", i+1, err)
			}
		}
	})
}

// FuzzReadBench: Go benchmark output of any shape reads as points or an
// error, never a panic, and its points pass CheckRead.
func FuzzReadBench(f *testing.F) {
	for _, s := range readSeeds {
		if strings.Contains(s, "Benchmark") {
			f.Add(s)
		}
	}
	data, err := os.ReadFile(filepath.Join("testdata", "gotest-bench.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Fuzz(func(t *testing.T, text string) {
		points, err := ReadBench(strings.NewReader(text), "fuzz.txt")
		if err != nil {
			return
		}
		for i, p := range points {
			if err := p.CheckRead(); err != nil {
				t.Errorf("point %d was read, but: %v", i+1, err)
			}
		}
	})
}
