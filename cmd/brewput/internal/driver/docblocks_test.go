package driver

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fence tags a doc's block may have: source, which is read rather than
// run; commands to type, and lists of them. A block without a tag is
// output shown, which a test must print again.
var (
	sourceTags  = []string{"go", "yaml"}
	commandTags = []string{"sh", "text"}
)

// validationBlocks mark the blocks that validation's commands' tests write
// (cd validation && go test ./published -update, ./reallibs -update,
// ./heldout -update).
var validationBlocks = []string{"<!-- go run ./published, its verdicts: begin -->", "<!-- go run ./reallibs: begin -->",
	"<!-- go run ./heldout: begin -->"}

// TestDocBlocks: every fenced block of README.md and docs/ is source (go,
// yaml), commands to type (sh, text), or output that a test prints again
// from the current code: a deterministic example (TestDocExamples), the
// main job's sample (TestReadmeMainJob), a recorded run (TestDocRecords)
// or a validation command's (validation/published, validation/reallibs,
// validation/heldout);
// and every block but
// source fits a terminal 80 columns wide. docs/commands.md is the
// commands' help, which TestDocsCommands writes and holds to 80 columns.
func TestDocBlocks(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(append([]string{filepath.Join(root, "README.md")}, files...), func(f string) bool {
		return filepath.Base(f) == "commands.md"
	})
	outputs := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		name, _ := filepath.Rel(root, file)
		run := map[int]bool{} // the lines of the commands TestDocExamples runs
		for _, e := range examples(file, lines) {
			run[e.line] = true
		}
		for _, b := range fencedBlocks(lines) {
			at := func(i int) string { return name + ":" + strconv.Itoa(i+1) }
			switch {
			case slices.Contains(sourceTags, b.tag):
				continue
			case slices.Contains(commandTags, b.tag):
			case b.tag != "":
				t.Errorf("%s: a block tagged %q; want none (output a test prints), %s (source) or %s (commands)",
					at(b.open), b.tag, strings.Join(sourceTags, ", "), strings.Join(commandTags, ", "))
			default:
				outputs++
				checkOutputBlock(t, lines, b, run, at, filepath.Base(file))
			}
			for i := b.open + 1; i < b.close; i++ {
				if n := utf8.RuneCountInString(lines[i]); n > 80 {
					t.Errorf("%s: a line of %d columns in a block a reader sees in a terminal (80 at most; a command continues on the next line after \" \\\"): %q",
						at(i), n, lines[i])
				}
			}
		}
	}
	if outputs == 0 {
		t.Fatal("no output block found in README.md or docs/: the parser or the docs changed")
	}
}

// checkOutputBlock fails where the untagged block b shows output that no
// test prints again.
func checkOutputBlock(t *testing.T, lines []string, b fencedBlock, run map[int]bool, at func(int) string, base string) {
	t.Helper()
	switch {
	case b.open > 0 && slices.Contains(validationBlocks, lines[b.open-1]):
		return
	case b.open > 0 && strings.HasPrefix(lines[b.open-1], recordMarker):
		return // TestDocRecords prints it and checks its form
	case b.close == b.open+1:
		t.Errorf("%s: an empty block", at(b.open))
		return
	case !strings.HasPrefix(lines[b.open+1], "$ "):
		t.Errorf("%s: a block of output no test prints again (it starts %q): show the command a test runs (TestDocExamples), "+
			"a recorded run (%s…), or tag the block sh (commands to type)", at(b.open), lines[b.open+1], recordMarker)
		return
	}
	for i := b.open + 1; i < b.close; {
		if !strings.HasPrefix(lines[i], "$ ") {
			i++
			continue
		}
		cmd, next := commandAt(lines, i)
		hasOutput := next < b.close && !strings.HasPrefix(lines[next], "$ ")
		mainJob := cmd == "$ brewput" && (base == "README.md" || base == "modes.md")
		if hasOutput && !run[i+1] && !mainJob {
			t.Errorf("%s: the output of %q, which no test prints again: show a deterministic command (see deterministic), or a recorded run (%s…)",
				at(i), cmd, recordMarker)
		}
		i = next
	}
}

// fencedBlock is a block between ``` lines: its tag and the lines of its
// fences.
type fencedBlock struct {
	tag         string
	open, close int
}

func fencedBlocks(lines []string) []fencedBlock {
	var out []fencedBlock
	open := -1
	for i, l := range lines {
		if !strings.HasPrefix(l, "```") {
			continue
		}
		if open < 0 {
			open = i
			continue
		}
		out = append(out, fencedBlock{tag: strings.TrimSpace(strings.TrimPrefix(lines[open], "```")), open: open, close: i})
		open = -1
	}
	return out
}
