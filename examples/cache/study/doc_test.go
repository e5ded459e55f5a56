package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/measure/study"
)

var update = flag.Bool("update", false, "rewrite the outputs shown in README.md and docs/ of TestDocPredict")

// docCommand is how the docs show this program's predict command on the
// measurements kept in testdata: what it prints depends on nothing but
// those files, so the docs show it as it prints it now.
const docCommand = "$ go run ./examples/cache/study predict "

// TestDocPredict: every "$ go run ./examples/cache/study predict …"
// shown in a fenced block of README.md or docs/ prints what the block
// shows after it, up to the block's end or a line "…" (only what stands
// before it is compared); -update rewrites the shown output. The commands
// read testdata/measured.json (this program's run --cpus 1,2 --count 5
// --dur 1s on the 2-core VM) and testdata/calibration.json (brewput
// calibrate there).
func TestDocPredict(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	t.Chdir(root) // the commands name files from the repository's root, as a user types them there
	seen := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		in, changed := false, false
		for i := 0; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], "```") {
				in = !in
				continue
			}
			args, ok := strings.CutPrefix(lines[i], docCommand)
			if !in || !ok {
				continue
			}
			seen++
			end, cut := i+1, false
			for ; end < len(lines) && !strings.HasPrefix(lines[end], "```"); end++ {
				if lines[end] == "…" {
					cut = true
					break
				}
			}
			var stdout, stderr bytes.Buffer
			code := study.Run(context.Background(), cacheStudy(), append([]string{"predict"}, strings.Fields(args)...), strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Errorf("%s:%d: exit %d: %s", file, i+1, code, stderr.String())
				continue
			}
			got := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
			want := lines[i+1 : end]
			if cut && len(got) > len(want) {
				got = got[:len(want)]
			}
			if slices.Equal(got, want) {
				continue
			}
			if *update {
				lines = slices.Concat(lines[:i+1], got, lines[end:])
				changed = true
				continue
			}
			t.Errorf("%s:%d: predict %s prints otherwise than shown (go test ./examples/cache/study -run TestDocPredict -update rewrites it):\ngot:\n%s\nshown:\n%s",
				file, i+1, args, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if changed {
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no predict command of the cache study shown in README.md or docs/: the parser or the docs changed")
	}
}
